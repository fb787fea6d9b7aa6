// Request bodies as the cash-register services read them. Webkassa is an ASP.NET service: its own Postman
// examples carry `//` comments and send field names in any case (`cashboxUniqueNumber`, `Gtin`), and the
// service accepts them, so the emulator strips comments and trailing commas and finds fields in any case.

/** The text without `//` and `/* *\/` comments outside strings, and without commas before `}` or `]`. */
export function stripComments(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

export type Obj = Record<string, unknown>;

/** The parsed body, or undefined when it is not a JSON object (comments allowed). */
export function parseBody(text: string): Obj | undefined {
  if (!text.trim()) return {};
  try {
    const v = JSON.parse(stripComments(text));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
  } catch {
    return undefined;
  }
}

/** A field found whatever the case of its name. */
export function field(o: unknown, name: string): unknown {
  if (!o || typeof o !== 'object') return undefined;
  const rec = o as Obj;
  if (name in rec) return rec[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(rec)) if (k.toLowerCase() === lower) return rec[k];
  return undefined;
}

export const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** A text field: strings as they are, numbers written out (Webkassa's examples send both). */
export function text(o: unknown, name: string): string | undefined {
  const v = field(o, name);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}
