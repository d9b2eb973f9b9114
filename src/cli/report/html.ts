/**
 * Renders the report as one self-contained HTML page: inline CSS and SVG, no network, no
 * external files. A small inline script checks that the charts have drawn (each has marks
 * with a size) and then sets the page title and `data-rendered` on <body>, so headless
 * checks can tell a drawn page from a broken one.
 */
import { waterfall } from '../../engine/index.js';
import type { BorderlinePair, ModelView, ReportData, ShownCluster, ShownRow } from './data.js';
import { COLORS, escapeHtml, fieldContributionSvg, scoreHistogramSvg, waterfallSvg, weightBarSvg } from './svg.js';

/** Title the page sets once every chart has drawn. */
export const RENDERED_TITLE_PREFIX = 'matchbook report: charts drawn';

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1d232a;margin:0;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:24px 28px 48px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 8px;border-bottom:1px solid #dde1e6;padding-bottom:4px}
.sub{color:#57606a;margin:0 0 16px}.caption{color:#57606a;font-size:12.5px;margin:4px 0 0}
.figures{display:flex;flex-wrap:wrap;gap:10px;margin:16px 0}
.figure{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:10px 14px;min-width:130px}
.figure b{display:block;font-size:22px}.figure span{color:#57606a;font-size:12px}
.card{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:14px;margin:10px 0}
table{border-collapse:collapse;width:100%;font-size:12.5px}th,td{text-align:left;padding:3px 8px;border-bottom:1px solid #eef0f2;vertical-align:top}
th{color:#57606a;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}
.legend span{display:inline-block;margin-right:14px;font-size:12.5px}.legend i{display:inline-block;width:12px;height:12px;margin-right:5px;vertical-align:-1px;border-radius:2px}
.pair h3{font-size:14px;margin:0 0 8px}.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;color:#fff;margin-left:8px}
.pair .note{margin:0 0 8px;font-size:13px;color:#6b4e00}
pre{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:12px;overflow:auto;font-size:12px;white-space:pre-wrap}
.diff{background:#fff4e5}
`;

const CHECK_SCRIPT = `
(function(){
  var charts=document.querySelectorAll('svg[data-chart]');var drawn=0;
  charts.forEach(function(svg){var marks=svg.querySelectorAll('.mark');var ok=false;
    marks.forEach(function(m){var b=m.getBBox();if(b.width>0&&b.height>0)ok=true;});
    if(ok){drawn++;svg.setAttribute('data-drawn','yes');}});
  document.body.setAttribute('data-rendered',drawn+'/'+charts.length);
  if(drawn===charts.length)document.title=${JSON.stringify(RENDERED_TITLE_PREFIX)}+' ('+drawn+')';
})();`;

function legend(items: readonly [string, string][]): string {
  return `<div class="legend">${items.map(([color, label]) => `<span><i style="background:${color}"></i>${escapeHtml(label)}</span>`).join('')}</div>`;
}

function rowsTable(columns: readonly string[], rows: readonly ShownRow[], highlight = false): string {
  const head = `<tr><th>id</th>${columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>`;
  const differs = (i: number): boolean => highlight && new Set(rows.map((r) => (r.values[i] ?? '').toLowerCase())).size > 1;
  const body = rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.id)}</td>${columns.map((_, i) => `<td${differs(i) ? ' class="diff"' : ''}>${escapeHtml(r.values[i] ?? '')}</td>`).join('')}</tr>`,
    )
    .join('');
  return `<table>${head}${body}</table>`;
}

function clusterCard(c: ShownCluster, columns: readonly string[]): string {
  const more = c.size > c.rows.length ? ` (first ${c.rows.length} shown)` : '';
  return `<div class="card"><h3 style="margin:0 0 6px;font-size:14px">${escapeHtml(c.id)}: ${c.size} rows${more}</h3>${rowsTable(columns, c.rows, true)}</div>`;
}

function pairCard(p: BorderlinePair, data: ReportData, index: number): string {
  const color = p.decision === 'Matched' ? COLORS.matched : COLORS.possible;
  const maxAbs = Math.max(1, ...p.explanation.map((e) => Math.abs(e.weight)));
  const expl = p.explanation
    .map(
      (e) =>
        `<tr><td>${escapeHtml(e.field)}</td><td>${escapeHtml(e.label)}</td><td class="num">${e.weight >= 0 ? '+' : ''}${e.weight.toFixed(2)}</td><td>${weightBarSvg(e.weight, maxAbs)}</td></tr>`,
    )
    .join('');
  const sides =
    data.columns === data.rightColumns
      ? rowsTable(data.columns, [p.left, p.right], true)
      : `${rowsTable(data.columns, [p.left])}<div style="height:6px"></div>${rowsTable(data.rightColumns, [p.right])}`;
  const steps = waterfall(p.explanation.map((e) => ({ field: e.field, level: 'exact' as const, label: e.label, weight: e.weight })));
  const chart = data.model === null ? '' : `<div style="margin-top:8px">${waterfallSvg(steps, data.thresholds.match, index)}</div>`;
  return `<div class="card pair"><h3>#${index + 1}: ${escapeHtml(p.left.id)} ↔ ${escapeHtml(p.right.id)}: ${p.score.toFixed(2)} bits<span class="badge" style="background:${color}">${escapeHtml(p.decision)}</span></h3>${p.note === undefined ? '' : `<p class="note">${escapeHtml(p.note)}</p>`}${sides}<table style="margin-top:8px"><tr><th>field</th><th>comparison</th><th>bits</th><th></th></tr>${expl}</table>${chart}</div>`;
}

function modelSection(model: ModelView | null): string {
  if (model === null) return '';
  const rows = model.comparisons
    .map((c) => {
      const maxAbs = Math.max(1, ...c.levels.map((l) => Math.abs(l.weight)));
      const levels = c.levels
        .map(
          (l, i) =>
            `<tr>${i === 0 ? `<td rowspan="${c.levels.length}"><b>${escapeHtml(c.field)}</b>${c.source ? `<br><span class="caption">${escapeHtml(c.source)}</span>` : ''}</td>` : ''}<td>${escapeHtml(l.label)}</td><td class="num">${l.m.toPrecision(3)}</td><td class="num">${l.u.toPrecision(3)}</td><td class="num">${l.weight >= 0 ? '+' : ''}${l.weight.toFixed(2)}</td><td>${weightBarSvg(l.weight, maxAbs)}</td></tr>`,
        )
        .join('');
      return levels;
    })
    .join('');
  return `<h2>The model</h2>
<pre>${escapeHtml(model.description.join('\n'))}</pre>
<div class="card"><table><tr><th>comparison</th><th>level</th><th>m</th><th>u</th><th>weight (bits)</th><th></th></tr>${rows}</table></div>
<p class="caption">m: how often the same person shows the level; u: how often two different people do; weight: log2(m/u). "estimated": m from the file by EM; "fallback": the estimate was degenerate and the shipped prior stands in; "prior": the file gave no training pairs for it.</p>`;
}

/** The report page. */
export function renderReport(data: ReportData): string {
  const figures = data.figures.map((f) => `<div class="figure"><b>${escapeHtml(f.value)}</b><span>${escapeHtml(f.label)}</span></div>`).join('');
  const clusters =
    data.clusters.length === 0 ? `<p class="caption">${escapeHtml(data.clustersEmpty)}</p>` : data.clusters.map((c) => clusterCard(c, data.columns)).join('');
  const belowNote = data.histogram.belowNote.charAt(0).toUpperCase() + data.histogram.belowNote.slice(1);
  const pairs =
    data.borderline.length === 0
      ? '<p class="caption">No pair scored above the review threshold.</p>'
      : data.borderline.map((p, i) => pairCard(p, data, i)).join('');
  const fields =
    data.fields.length === 0
      ? '<p class="caption">No pairs to explain.</p>'
      : `${legend([
          [COLORS.matched, `Matched pairs (${data.fieldSample.matched} sampled)`],
          [COLORS.possible, `Possible pairs (${data.fieldSample.possible} sampled)`],
        ])}${fieldContributionSvg(data.fields)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>matchbook report: ${escapeHtml(data.title)}</title><style>${CSS}</style></head>
<body data-rendered="no"><main>
<h1>${escapeHtml(data.title)}</h1><p class="sub">${escapeHtml(data.subtitle)}</p>
<div class="figures">${figures}</div>
${modelSection(data.model)}
<h2>Score distribution</h2>
${legend([
  [COLORS.matched, 'best candidate Matched'],
  [COLORS.possible, 'best candidate Possible (review)'],
  [COLORS.below, 'no candidate above the review threshold'],
])}
<div class="card">${scoreHistogramSvg(data.histogram, data.thresholds)}</div>
<p class="caption">Each row counted once, at the score of its best candidate. Dashed lines: the thresholds. ${escapeHtml(belowNote)}. Moving the match line left merges more; right, fewer.</p>
<h2>What each field contributed</h2>
<div class="card">${fields}</div>
<p class="caption">Mean match weight (bits, log2 m/u) each field added to a pair's score. Fields that agree add; fields that differ subtract.</p>
<h2>${escapeHtml(data.clustersTitle)}</h2>
${clusters}
<h2>Borderline pairs</h2>
<p class="caption">The pairs scoring closest to the match threshold (${data.thresholds.match.toFixed(2)} bits), with each field's part of the score${data.model === null ? '' : ' and a waterfall of how the weights add up from the prior'}: judge the threshold by these.</p>
${pairs}
<h2>Run summary</h2>
<pre>${escapeHtml(data.summary.join('\n'))}</pre>
</main><script>${CHECK_SCRIPT}</script></body></html>
`;
}
