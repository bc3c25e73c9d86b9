import { useEffect } from 'react';

/**
 * A page past the end (an old link, rows pruned since) moves to the last one there is. Answers
 * whether the page shown is past the end: its empty list is not "nothing found", only a moment
 * before the move.
 */
export function useLastPageAtMost(page: number, loaded: { total_pages: number } | null | undefined, loading: boolean, goToPage: (page: number) => void): boolean {
  const lastPage = loaded && !loading ? Math.max(1, loaded.total_pages) : null;
  const pastEnd = lastPage !== null && page > lastPage;
  useEffect(() => {
    if (pastEnd && lastPage !== null) goToPage(lastPage);
    // goToPage is a new function at every render: the move depends on the numbers alone.
  }, [pastEnd, lastPage]);
  return pastEnd;
}
