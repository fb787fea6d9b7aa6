// How the emulator reads a request, in one step before routing. The provider is an ASP.NET service (its
// dates without a zone carry .NET's 7 fractional digits): its JSON reader matches property names without
// regard to case and takes a trailing comma, its routing ignores a trailing slash, and its query binding
// ignores the case of names. Public clients rely on each of these (camelCase `deviceId`, `device/register/`,
// `qrPaymentId` in the test calls), so the emulator must not refuse what the provider would take.

/** A request as the routes see it: the path without trailing slashes, names read in any case. */
export interface LenientRequest {
  pathname: string;
  query: CaselessQuery;
  /** null when the body is not JSON */
  body: Record<string, unknown> | null;
}

/** Query parameters found by name in any case: `deviceToken`, `DeviceToken`, `devicetoken`. */
export class CaselessQuery {
  private readonly values = new Map<string, string>();

  constructor(params: URLSearchParams) {
    // The first of repeated names wins, as URLSearchParams.get does.
    for (const [k, v] of params) if (!this.values.has(k.toLowerCase())) this.values.set(k.toLowerCase(), v);
  }

  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }
}

/** A view of a JSON object whose fields are found in any case: `view.DeviceToken` reads `deviceToken` too. */
export function caseless(obj: Record<string, unknown>): Record<string, unknown> {
  const byLower = new Map<string, string>();
  for (const k of Object.keys(obj)) if (!byLower.has(k.toLowerCase())) byLower.set(k.toLowerCase(), k);
  const keyOf = (k: string | symbol) => (typeof k === 'string' ? byLower.get(k.toLowerCase()) : undefined);
  return new Proxy(obj, {
    get: (t, k) => {
      const key = keyOf(k);
      return key === undefined ? undefined : t[key];
    },
    has: (_t, k) => keyOf(k) !== undefined,
  });
}

/** The text without the commas that stand right before a `}` or `]` (outside strings). */
export function withoutTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === ',') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j])) j++;
      if (text[j] === '}' || text[j] === ']') continue;
    }
    out += ch;
  }
  return out;
}

/** The JSON body read as the provider would, or null when it is not JSON. An empty body is `{}`. */
export function parseLenientJson(text: string): Record<string, unknown> | null {
  if (!text.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(withoutTrailingCommas(text));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return null;
  }
}

export function lenientRequest(url: URL, text: string): LenientRequest {
  const body = parseLenientJson(text);
  return {
    pathname: url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname,
    query: new CaselessQuery(url.searchParams),
    body: body && caseless(body),
  };
}
