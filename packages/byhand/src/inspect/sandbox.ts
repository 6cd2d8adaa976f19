// The sandbox proxy (ext-apps specification/2026-01-26/apps.mdx, §Sandbox proxy): the page at one origin frames this
// document at another (a port of its own), and this document frames the view in an iframe with an opaque origin
// (sandbox without allow-same-origin), its HTML given as srcdoc with the host's CSP as the first thing in it. It says
// ui/notifications/sandbox-proxy-ready to the page, takes ui/notifications/sandbox-resource-ready once, and then
// only relays: the page's messages to the view, the view's to the page (at the page's exact origin), except the
// sandbox-* notifications, which a view may not send. It holds no token and can reach nothing but its two windows.

/** The proxy document for a page at `hostOrigins` (the loopback names it is served under). */
export function sandboxHtml(hostOrigins: readonly string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>byhand inspect: MCP App sandbox</title>
<style>html, body { margin: 0; height: 100%; } iframe { border: 0; width: 100%; height: 100%; display: block; }</style>
</head>
<body>
<script>
(() => {
  const HOSTS = ${JSON.stringify(hostOrigins)};
  let host;
  let inner;
  const isSandboxNote = (m) => m && typeof m.method === 'string' && m.method.startsWith('ui/notifications/sandbox-');
  const escape = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  // First in the document: after a leading doctype (kept, so the view is not in quirks mode), else before anything.
  function withPolicy(html, csp) {
    const meta = '<meta http-equiv="Content-Security-Policy" content="' + escape(csp) + '">';
    const doctype = /^\\s*<!doctype html[^>]*>/i.exec(html);
    return doctype ? doctype[0] + meta + html.slice(doctype[0].length) : meta + html;
  }
  function load(params) {
    if (inner || !params || typeof params.html !== 'string' || typeof params.csp !== 'string') return;
    inner = document.createElement('iframe');
    inner.setAttribute('sandbox', 'allow-scripts allow-forms');
    if (typeof params.allow === 'string' && params.allow) inner.setAttribute('allow', params.allow);
    inner.setAttribute('title', 'MCP App view');
    inner.srcdoc = withPolicy(params.html, params.csp);
    document.body.appendChild(inner);
  }
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (event.source === window.parent) {
      if (!HOSTS.includes(event.origin) || (host && event.origin !== host)) return;
      host = event.origin;
      if (message && message.method === 'ui/notifications/sandbox-resource-ready') return load(message.params);
      if (isSandboxNote(message) || !inner) return;
      inner.contentWindow.postMessage(message, '*');
    } else if (inner && event.source === inner.contentWindow && host && !isSandboxNote(message)) {
      window.parent.postMessage(message, host);
    }
  });
  for (const origin of HOSTS) window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, origin);
})();
</script>
</body>
</html>
`;
}
