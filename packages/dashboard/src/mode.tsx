// Live or test data, like a "View test data" switch: every call of the cabinet that takes ?mode= gets it,
// and the shell shows a banner while test data is on. Kept per browser.
import { createContext, useContext, useState, type ReactNode } from 'react';

export type Mode = 'live' | 'test';
const KEY = 'tolem.mode';
const ModeContext = createContext<{ mode: Mode; setMode: (m: Mode) => void }>({ mode: 'live', setMode: () => {} });

export function ModeProvider({ children }: { children: ReactNode }) {
  const [mode, set] = useState<Mode>(localStorage.getItem(KEY) === 'test' ? 'test' : 'live');
  const setMode = (m: Mode) => {
    localStorage.setItem(KEY, m);
    set(m);
  };
  return <ModeContext.Provider value={{ mode, setMode }}>{children}</ModeContext.Provider>;
}

export const useMode = () => useContext(ModeContext);
