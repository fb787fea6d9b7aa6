// After a deploy the open page still names the old build's chunks, which the server no longer has: a page
// that fails to load for that reason needs the new index.html, so the page reloads, once. The signs: the
// failed chunk answers 404, or the index.html the server gives now starts another script than this page's.
// A note in sessionStorage keeps it to one reload for a given chunk and build, so a server that lost a
// chunk for good shows the "could not load" message instead of reloading forever.
const RELOADED = 'tolem.reloaded-for';

/** The entry script the server's index.html names now (undefined when it cannot be read). */
async function latestEntry(): Promise<string | undefined> {
  try {
    const res = await fetch(import.meta.env.BASE_URL, { cache: 'no-store' });
    const src = res.ok ? /<script[^>]+src="([^"]+)"/.exec(await res.text())?.[1] : undefined;
    return src ? new URL(src, location.href).href : undefined;
  } catch {
    return undefined;
  }
}

/** The server answers 404 for the chunk: it is not there any more (and not just out of reach). */
async function chunkGone(url: string | undefined): Promise<boolean> {
  if (!url || new URL(url).origin !== location.origin) return false;
  try {
    return (await fetch(url, { method: 'HEAD', cache: 'no-store' })).status === 404;
  } catch {
    return false;
  }
}

const currentEntry = () => document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src;

/**
 * Whether the chunk failed because a newer build replaced this page's, and what to remember the reload by:
 * the missing chunk, or the build the server names now. A network failure is neither.
 */
async function replacedBuild(chunkUrl: string | undefined): Promise<{ replaced: boolean; key: string }> {
  if (await chunkGone(chunkUrl)) return { replaced: true, key: chunkUrl! };
  const latest = await latestEntry();
  return { replaced: Boolean(latest && latest !== currentEntry()), key: latest ?? '' };
}

/** Reloads the page when a new build explains the failure and it has not reloaded for it yet; true then. */
export async function reloadForNewBuild(chunkUrl: string | undefined): Promise<boolean> {
  const { replaced, key } = await replacedBuild(chunkUrl);
  if (!replaced) return false;
  try {
    if (sessionStorage.getItem(RELOADED) === key) return false;
    sessionStorage.setItem(RELOADED, key);
  } catch {
    return false; // no sessionStorage (a locked-down browser): no guard, so no automatic reload either
  }
  location.reload();
  return true;
}
