import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { InlineLoading } from '../ui/LoadingScreen';

/**
 * A page (or a part of one) whose code is fetched the first time it is shown: its own chunk in
 * the build, kept out of the first load. `fallback` shows meanwhile.
 */
export function lazyPage<P extends object, K extends string>(load: () => Promise<Record<K, ComponentType<P>>>, name: K, fallback: ReactNode = <InlineLoading label="Loading..." />): ComponentType<P> {
  const Page = lazy(async (): Promise<{ default: ComponentType<P> }> => ({ default: (await load())[name] }));
  return function LazyPage(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Page {...props} />
      </Suspense>
    );
  };
}
