// A page in a chunk of its own that survives a failed load. The import is tried three times, a short wait
// apart, before it fails (a network blip, a server restarting: the next try usually works), and fails with
// a ChunkLoadError that PageBoundary recognises. React's lazy() keeps a failed import for good, so a page
// asked for again after its failure ("try again", or coming back to it) gets a new one: renewFailedPages().
import { createElement, lazy, type ComponentType } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;

/** Waits before the second and the third try. */
const BACKOFF_MS = [400, 1200];

/** A page's chunk (or one it needs) could not be fetched or run; `url` when the browser named it. */
export class ChunkLoadError extends Error {
  readonly url: string | undefined;
  constructor(cause: unknown) {
    const message = cause instanceof Error ? cause.message : String(cause);
    super(message, { cause });
    this.name = 'ChunkLoadError';
    // Chromium and Firefox name the module in the message ("Failed to fetch dynamically imported module: …").
    this.url = /(https?:\/\/\S+?\.js)\b/.exec(message)?.[1];
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Stylesheets whose load failed (their error event does not bubble: it is caught on its way down). */
const failedStyles = new Set<HTMLLinkElement>();
document.addEventListener(
  'error',
  (e) => {
    if (e.target instanceof HTMLLinkElement && e.target.rel === 'stylesheet') failedStyles.add(e.target);
  },
  true,
);

/**
 * Asks again for the stylesheets that failed to load. Vite adds a chunk's styles to the page before its
 * code and fails the import when they fail, but it never adds the same stylesheet twice: without this, a
 * retry would draw the page without them.
 */
function refetchFailedStyles(): void {
  for (const link of failedStyles) link.replaceWith(link.cloneNode() as HTMLLinkElement);
  failedStyles.clear();
}

export async function importWithRetry<T>(load: () => Promise<T>, waits: number[] = BACKOFF_MS): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (e) {
      if (attempt >= waits.length) throw new ChunkLoadError(e);
      await sleep(waits[attempt]);
      refetchFailedStyles();
    }
  }
}

/** Renewals of the pages whose load failed, run when the user asks for a page again. */
const failed = new Set<() => void>();

export function lazyPage(load: Loader): ComponentType {
  const make = () =>
    lazy(() =>
      importWithRetry(load).catch((e: unknown) => {
        failed.add(renew);
        throw e;
      }),
    );
  let Current = make();
  const renew = () => {
    Current = make();
  };
  return function LazyPage() {
    return createElement(Current);
  };
}

/**
 * Every page whose load failed asks for its chunk again when it is next drawn: "try again", or going to
 * another page (and maybe back). Not on its own: React draws a page again as soon as its load fails, and
 * that must show the failure, not start over.
 */
export function renewFailedPages(): void {
  for (const renew of failed) renew();
  failed.clear();
}
