import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { InlineLoading } from '../ui/LoadingScreen';

/**
 * A page (or a part of one) whose code is fetched the first time it is shown: its own chunk in
 * the build, kept out of the first load. `fallback` shows meanwhile.
 */
export function lazyPage<P extends object, K extends string>(load: () => Promise<Record<K, ComponentType<P>>>, name: K, fallback: ReactNode = <InlineLoading label="Loading..." />): ComponentType<P> {
  // React keeps a lazy component's failure for good. A fetch that failed (offline) gets a fresh
  // one, so Try again, once the connection is back, fetches the code again.
  const fresh = () =>
    lazy(async (): Promise<{ default: ComponentType<P> }> => {
      try {
        return { default: (await load())[name] };
      } catch (error) {
        Page = fresh();
        throw error;
      }
    });
  let Page = fresh();
  return function LazyPage(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Page {...props} />
      </Suspense>
    );
  };
}
