import { lazy, Suspense, type ComponentType } from 'react';
import { InlineLoading } from '../ui/LoadingScreen';

/** A page whose code is fetched the first time it is shown (its own chunk in the build). */
export function lazyPage<P extends object, K extends string>(load: () => Promise<Record<K, ComponentType<P>>>, name: K): ComponentType<P> {
  const Page = lazy(async (): Promise<{ default: ComponentType<P> }> => ({ default: (await load())[name] }));
  return function LazyPage(props: P) {
    return (
      <Suspense fallback={<InlineLoading label="Loading..." />}>
        <Page {...props} />
      </Suspense>
    );
  };
}
