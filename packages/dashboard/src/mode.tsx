// Live or test data, like a "View test data" switch: every call of the cabinet that takes ?mode= gets it,
// and the shell shows a banner while test data is on. Kept per browser. A link may choose it with ?mode=
// (a staff alert's link to a test payment opens it in test mode, decisions 28).
import { createContext, useContext, useState, type ReactNode } from 'react';

export type Mode = 'live' | 'test';
const KEY = 'tolem.mode';
const ModeContext = createContext<{ mode: Mode; setMode: (m: Mode) => void }>({ mode: 'live', setMode: () => {} });

export function ModeProvider({ children }: { children: ReactNode }) {
  const [mode, set] = useState<Mode>(() => {
    const linked = new URLSearchParams(window.location.search).get('mode');
    if (linked === 'live' || linked === 'test') localStorage.setItem(KEY, linked);
    return localStorage.getItem(KEY) === 'test' ? 'test' : 'live';
  });
  const setMode = (m: Mode) => {
    localStorage.setItem(KEY, m);
    set(m);
  };
  return <ModeContext.Provider value={{ mode, setMode }}>{children}</ModeContext.Provider>;
}

export const useMode = () => useContext(ModeContext);
