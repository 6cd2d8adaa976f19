// The page's style: system fonts, one column of panels beside a tab list, the wire in monospace.

export const PAGE_CSS = `
:root { color-scheme: light; --line: #d9dee7; --muted: #5b6577; --accent: #2456c7; --bad: #b3261e; --good: #1b7f3b; --soft: #f4f6fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b2130; background: #fff; }
header { padding: 8px 16px; border-bottom: 1px solid var(--line); display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; }
main { display: grid; grid-template-columns: 170px 1fr; min-height: calc(100vh - 42px); }
nav { border-right: 1px solid var(--line); padding: 8px 0; background: var(--soft); }
nav button { display: block; width: 100%; text-align: left; border: 0; background: none; padding: 6px 16px; font: inherit; cursor: pointer; }
nav button[aria-selected="true"] { background: #fff; color: var(--accent); font-weight: 600; }
section.panel { padding: 12px 16px; overflow: auto; }
h2 { font-size: 16px; margin: 0 0 8px; } h3 { font-size: 14px; margin: 12px 0 6px; }
.muted { color: var(--muted); } .bad { color: var(--bad); } .good { color: var(--good); }
.item { border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 0 0 8px; }
.item > summary { cursor: pointer; }
label { display: block; margin: 6px 0 2px; font-weight: 500; }
input, select, textarea { font: inherit; padding: 4px 6px; border: 1px solid #b9c1cf; border-radius: 4px; width: min(100%, 420px); }
textarea { min-height: 60px; font-family: ui-monospace, monospace; }
button.act { font: inherit; padding: 4px 12px; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; margin: 8px 6px 0 0; }
button.act.quiet { background: #fff; color: var(--accent); }
pre { background: var(--soft); padding: 6px 8px; border-radius: 4px; overflow: auto; max-height: 320px; margin: 4px 0; font: 12px/1.4 ui-monospace, monospace; white-space: pre-wrap; word-break: break-word; }
.tag { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px; background: #e6ecf8; color: var(--accent); margin-left: 6px; }
.tag.warn { background: #fdeceb; color: var(--bad); }
.wire-call { border-left: 3px solid var(--accent); padding-left: 8px; margin: 8px 0; }
.wire-entry { margin: 4px 0; } .wire-entry > summary { font: 12px ui-monospace, monospace; cursor: pointer; }
.round { font-size: 12px; background: #fff7e0; border-radius: 4px; padding: 2px 6px; margin: 4px 0; }
.question { border: 2px solid #e0a800; background: #fffaf0; }
.app-frame { border: 1px solid var(--line); border-radius: 6px; width: 100%; height: 320px; }
table { border-collapse: collapse; } td, th { text-align: left; padding: 2px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
img.result, audio.result { max-width: 100%; display: block; margin: 4px 0; }
`;
