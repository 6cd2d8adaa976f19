// The Content Security Policy and the permissions a view is rendered under, built from the `_meta.ui` of its
// resource (ext-apps specification/2026-01-26/apps.mdx, §Host Behavior and §Mitigations): the restrictive default
// when nothing is declared, each declared domain only where its list says, and nothing that was not declared. A
// source that is not a plain origin (a keyword, a scheme, a wildcard alone, anything with a quote, a space or a
// semicolon) is refused and named, so a server cannot widen the policy by what it writes.

export interface UiCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

export interface ViewPolicy {
  /** The policy, as the meta tag the sandbox puts first in the view's document carries it. */
  csp: string;
  /** The domains granted, per list, echoed to the view in hostCapabilities.sandbox.csp. */
  granted: Required<UiCsp>;
  /** What was declared and refused, each with why: the page shows it. */
  refused: string[];
  /** The iframe `allow` attribute for the permissions granted. */
  allow: string;
  /** The permissions granted, echoed in hostCapabilities.sandbox.permissions. */
  permissions: Record<string, Record<string, never>>;
}

const LISTS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSIONS: Record<string, string> = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
/** http(s) or ws(s), a host (a leading `*.` for its subdomains), an optional port; nothing after it. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;

export function viewPolicy(ui: unknown): ViewPolicy {
  const meta = isObject(ui) ? ui : {};
  const declared = isObject(meta.csp) ? meta.csp : {};
  const refused: string[] = [];
  const granted = Object.fromEntries(
    LISTS.map((list) => {
      const values = Array.isArray(declared[list]) ? declared[list] : declared[list] === undefined ? [] : [declared[list]];
      const kept: string[] = [];
      for (const value of values) {
        if (typeof value === 'string' && ORIGIN.test(value)) kept.push(value.toLowerCase());
        else refused.push(`${list}: ${JSON.stringify(value)} is not an origin (scheme://host[:port], *.host allowed)`);
      }
      return [list, [...new Set(kept)]];
    }),
  ) as Required<UiCsp>;
  const resources = granted.resourceDomains.join(' ');
  const join = (...parts: string[]) => parts.filter((p) => p !== '').join(' ');
  const csp = [
    "default-src 'none'",
    `script-src ${join("'self' 'unsafe-inline'", resources)}`,
    `style-src ${join("'self' 'unsafe-inline'", resources)}`,
    `img-src ${join("'self' data:", resources)}`,
    `font-src ${join("'self'", resources)}`,
    `media-src ${join("'self' data:", resources)}`,
    `connect-src ${granted.connectDomains.length > 0 ? granted.connectDomains.join(' ') : "'none'"}`,
    `frame-src ${granted.frameDomains.length > 0 ? granted.frameDomains.join(' ') : "'none'"}`,
    `base-uri ${granted.baseUriDomains.length > 0 ? granted.baseUriDomains.join(' ') : "'self'"}`,
    "object-src 'none'",
    "worker-src 'none'",
    "form-action 'none'",
  ].join('; ');
  const asked = isObject(meta.permissions) ? Object.keys(meta.permissions) : [];
  const permissions: Record<string, Record<string, never>> = {};
  for (const name of asked) {
    if (PERMISSIONS[name] !== undefined) permissions[name] = {};
    else refused.push(`permissions: ${JSON.stringify(name)} is not one the extension names (camera, microphone, geolocation, clipboardWrite)`);
  }
  const allow = Object.keys(permissions).map((name) => PERMISSIONS[name]).join('; ');
  return { csp, granted, refused, allow, permissions };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
