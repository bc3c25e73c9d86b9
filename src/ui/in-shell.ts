import { createContext, useContext } from 'react';

/** Whether a page renders inside the signed-in shell, whose AppShell.Main is the page's main landmark. */
export const InShell = createContext(false);

export const useInShell = () => useContext(InShell);
