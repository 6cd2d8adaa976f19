// The Week's view: one HTML document the host renders in its sandbox, speaking the MCP Apps postMessage protocol by
// hand (ext-apps specification/2026-01-26/apps.mdx, §Lifecycle): ui/initialize, then ui/notifications/initialized,
// then the tool's input and result arrive; a click calls the app-only day_details through the host, and the buttons
// send a ui/message and a model-context update. It loads nothing from anywhere, so the restrictive default CSP (no
// domain at all) is all it needs. Written without the ext-apps App class so the toolbox depends on nothing more
// than the SDK; test/inspect-browser runs that class as the view instead.

export const VIEW_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>The Week</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; padding: 12px; color: #1d2330; }
  table { border-collapse: collapse; width: 100%; }
  td, th { text-align: left; padding: 4px 8px; border-bottom: 1px solid #dde2ea; }
  tr[data-day] { cursor: pointer; }
  tr[data-day]:hover, tr.chosen { background: #eef3ff; }
  #details { margin: 8px 0; white-space: pre-wrap; min-height: 1.4em; }
  button { margin-right: 6px; }
</style>
</head>
<body>
<table><thead><tr><th>Day</th><th>Meal</th><th>Dish</th><th>People</th></tr></thead><tbody id="week"><tr><td colspan="4">waiting for the week…</td></tr></tbody></table>
<p id="details" data-testid="details"></p>
<button id="ask" disabled>Ask for another idea</button>
<button id="tell" disabled>Tell the model what I chose</button>
<script>
(() => {
  const pending = new Map();
  let nextId = 1;
  let chosen;
  const post = (message) => window.parent.postMessage(message, '*');
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    post({ jsonrpc: '2.0', id, method, params });
  });
  const notify = (method, params) => post({ jsonrpc: '2.0', method, params });
  const $ = (id) => document.getElementById(id);
  const say = (text) => { $('details').textContent = text; resize(); };
  const resize = () => notify('ui/notifications/size-changed', { height: document.documentElement.scrollHeight });

  function render(week) {
    const body = $('week');
    body.replaceChildren();
    for (const meal of week) {
      const row = document.createElement('tr');
      row.dataset.day = meal.day;
      for (const value of [meal.day, meal.meal, meal.dish, String(meal.people)]) {
        const cell = document.createElement('td');
        cell.textContent = value;
        row.append(cell);
      }
      row.addEventListener('click', () => choose(meal, row));
      body.append(row);
    }
    resize();
  }

  async function choose(meal, row) {
    chosen = meal;
    for (const other of document.querySelectorAll('tr.chosen')) other.classList.remove('chosen');
    row.classList.add('chosen');
    $('ask').disabled = $('tell').disabled = false;
    try {
      const result = await request('tools/call', { name: 'day_details', arguments: { day: meal.day } });
      say(result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\\n'));
    } catch (error) {
      say('The host refused: ' + (error && error.message));
    }
  }

  $('ask').addEventListener('click', () => request('ui/message', { role: 'user', content: [{ type: 'text', text: 'What could I cook instead of ' + chosen.dish + ' on ' + chosen.day + '?' }] }).catch((e) => say('The host refused: ' + e.message)));
  $('tell').addEventListener('click', () => request('ui/update-model-context', { content: [{ type: 'text', text: 'The user chose ' + chosen.day + ': ' + chosen.dish + ' for ' + chosen.people + '.' }] }).catch((e) => say('The host refused: ' + e.message)));

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.error) waiting.reject(message.error); else waiting.resolve(message.result);
      return;
    }
    if (message.method === 'ui/notifications/tool-result') {
      const week = message.params && message.params.structuredContent && message.params.structuredContent.week;
      if (Array.isArray(week)) render(week);
    } else if (message.method === 'ui/notifications/tool-cancelled') {
      say('The call was cancelled.');
    } else if (message.method === 'ui/resource-teardown' || message.method === 'ping') {
      post({ jsonrpc: '2.0', id: message.id, result: {} });
    } else if (message.id !== undefined) {
      post({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'the week view does not handle ' + message.method } });
    }
  });

  request('ui/initialize', { appInfo: { name: 'the-week', version: '0.1.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' })
    .then(() => notify('ui/notifications/initialized', {}))
    .catch((error) => say('The host did not initialize the view: ' + (error && error.message)));
})();
</script>
</body>
</html>
`;
