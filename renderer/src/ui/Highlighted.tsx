import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { matchedRanges, parseSearch, type Search } from '../../../shared/consents/search.js';
import classes from './Highlighted.module.css';

/** The search a list's cells highlight (shared/consents/search.ts: what it matched, where). */
const SearchContext = createContext<Search | undefined>(undefined);

/** The search the cells around highlight (undefined: none typed). */
export const useHighlightSearch = () => useContext(SearchContext);

/** Gives the cells inside the search typed, so that they highlight what it matched. */
export function HighlightSearch({ text, children }: { text: string | undefined; children: ReactNode }) {
  const search = useMemo(() => parseSearch(text), [text]);
  return <SearchContext.Provider value={search}>{children}</SearchContext.Provider>;
}

/**
 * A text with the parts the search around it matched marked (a screen reader reads the text
 * whole). A plain <mark> in Mantine's colours, not its Mark: each of those resolves its theme colour
 * and styles, and a keystroke marks a hundred cells. `atStartOnly`: a field the search matches at a word's start only (the use case's name).
 */
export function Highlighted({ text, atStartOnly = false }: { text: string; atStartOnly?: boolean }) {
  const search = useContext(SearchContext);
  const ranges = useMemo(() => matchedRanges(text, search, { atStartOnly }), [text, search, atStartOnly]);
  if (!ranges.length) return text;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      <mark key={start} className={classes.mark}>
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
