/**
 * The report's charts as inline SVG strings: drawn when the page is written, so they show
 * without scripts or network. Each chart is an <svg data-chart="NAME"> whose marks carry
 * class "mark" (the page's check script counts them).
 */
import type { FieldContribution, ScoreHistogram } from './data.js';

/** Escapes text for HTML and SVG. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

const COLORS = { matched: '#2e7d32', possible: '#e6a100', below: '#9aa5b1', axis: '#555', grid: '#e3e6ea', threshold: '#c62828' } as const;

function n(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

/** "+1.5", "-0.3", "0.0". */
function signed(v: number): string {
  const text = Math.abs(v).toFixed(1);
  return text === '0.0' ? text : `${v > 0 ? '+' : '-'}${text}`;
}

/** Round tick values for a maximum count. */
function countTicks(max: number): number[] {
  if (max <= 0) return [0];
  const raw = max / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * mag).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += step) ticks.push(v);
  return ticks;
}

/**
 * Stacked histogram of per-row best scores (square-root count axis, so that a few hundred
 * matches stay visible beside a million non-matches), with the thresholds marked.
 */
export function scoreHistogramSvg(h: ScoreHistogram, thresholds: { match: number; possible: number }): string {
  const W = 960;
  const H = 320;
  const m = { left: 64, right: 16, top: 28, bottom: 44 };
  const bins = h.matched.length;
  const totals = h.matched.map((v, i) => v + (h.possible[i] ?? 0) + (h.below[i] ?? 0));
  const maxCount = Math.max(1, ...totals);
  const plotW = W - m.left - m.right;
  const plotH = H - m.top - m.bottom;
  const bw = plotW / bins;
  const x = (score: number): number => m.left + ((score - h.start) / (bins * h.width)) * plotW;
  const y = (count: number): number => m.top + plotH - (Math.sqrt(count) / Math.sqrt(maxCount)) * plotH;
  const parts: string[] = [];
  for (const t of countTicks(maxCount)) {
    parts.push(`<line x1="${m.left}" x2="${W - m.right}" y1="${n(y(t))}" y2="${n(y(t))}" stroke="${COLORS.grid}"/>`);
    parts.push(`<text x="${m.left - 6}" y="${n(y(t) + 4)}" text-anchor="end" font-size="11" fill="${COLORS.axis}">${t.toLocaleString('en-US')}</text>`);
  }
  for (let i = 0; i < bins; i++) {
    let base = 0;
    for (const [kind, list] of [
      ['below', h.below],
      ['possible', h.possible],
      ['matched', h.matched],
    ] as const) {
      const v = list[i] ?? 0;
      if (v <= 0) continue;
      const top = y(base + v);
      const bottom = y(base);
      const score = h.start + i * h.width;
      parts.push(
        `<rect class="mark" x="${n(m.left + i * bw + 0.5)}" y="${n(top)}" width="${n(Math.max(1, bw - 1))}" height="${n(Math.max(0.5, bottom - top))}" fill="${COLORS[kind]}"><title>${kind}: ${Math.round(v).toLocaleString('en-US')} rows scoring ${n(score)} to ${n(score + h.width)} bits</title></rect>`,
      );
      base += v;
    }
  }
  const step = bins > 40 ? 10 : 5;
  for (let s = Math.ceil(h.start / step) * step; s <= h.start + bins * h.width; s += step) {
    parts.push(`<line x1="${n(x(s))}" x2="${n(x(s))}" y1="${m.top + plotH}" y2="${m.top + plotH + 5}" stroke="${COLORS.axis}"/>`);
    parts.push(`<text x="${n(x(s))}" y="${m.top + plotH + 18}" text-anchor="middle" font-size="11" fill="${COLORS.axis}">${s}</text>`);
  }
  parts.push(`<line x1="${m.left}" x2="${W - m.right}" y1="${m.top + plotH}" y2="${m.top + plotH}" stroke="${COLORS.axis}"/>`);
  parts.push(
    `<text x="${m.left + plotW / 2}" y="${H - 6}" text-anchor="middle" font-size="12" fill="${COLORS.axis}">best match weight of each row (bits)</text>`,
  );
  parts.push(
    `<text x="14" y="${m.top + plotH / 2}" text-anchor="middle" font-size="12" fill="${COLORS.axis}" transform="rotate(-90 14 ${m.top + plotH / 2})">rows (square-root scale)</text>`,
  );
  const marks = [
    { label: `review ≥ ${n(thresholds.possible)}`, value: thresholds.possible, anchor: 'end', dx: -4 },
    { label: `match ≥ ${n(thresholds.match)}`, value: thresholds.match, anchor: 'start', dx: 4 },
  ];
  for (const { label, value, anchor, dx } of marks) {
    const tx = x(value);
    parts.push(
      `<line class="mark threshold" x1="${n(tx)}" x2="${n(tx)}" y1="${m.top - 6}" y2="${m.top + plotH}" stroke="${COLORS.threshold}" stroke-width="2" stroke-dasharray="6 4"/>`,
    );
    parts.push(`<text x="${n(tx + dx)}" y="${m.top - 10}" text-anchor="${anchor}" font-size="12" fill="${COLORS.threshold}">${escapeHtml(label)}</text>`);
  }
  return `<svg data-chart="scores" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="Distribution of best match scores">${parts.join('')}</svg>`;
}

/** Diverging horizontal bars: each field's mean weight in Matched and in Possible pairs. */
export function fieldContributionSvg(fields: readonly FieldContribution[]): string {
  const W = 960;
  const rowH = 30;
  const m = { left: 130, right: 70, top: 24, bottom: 30 };
  const H = m.top + m.bottom + Math.max(1, fields.length) * rowH;
  const maxAbs = Math.max(1, ...fields.flatMap((f) => [Math.abs(f.matched), Math.abs(f.possible)]));
  const plotW = W - m.left - m.right;
  const zero = m.left + plotW / 2;
  const scale = (v: number): number => (v / maxAbs) * (plotW / 2);
  const parts: string[] = [];
  parts.push(`<line x1="${n(zero)}" x2="${n(zero)}" y1="${m.top - 8}" y2="${H - m.bottom}" stroke="${COLORS.axis}"/>`);
  parts.push(`<text x="${n(zero - 8)}" y="${m.top - 10}" text-anchor="end" font-size="11" fill="${COLORS.axis}">← against a match</text>`);
  parts.push(`<text x="${n(zero + 8)}" y="${m.top - 10}" font-size="11" fill="${COLORS.axis}">for a match →</text>`);
  fields.forEach((f, i) => {
    const top = m.top + i * rowH;
    parts.push(`<text x="${m.left - 8}" y="${top + 19}" text-anchor="end" font-size="12" fill="#222">${escapeHtml(f.field)}</text>`);
    for (const [k, kind] of (['matched', 'possible'] as const).entries()) {
      const v = f[kind];
      const w = scale(v);
      const bx = w >= 0 ? zero : zero + w;
      const by = top + 4 + k * 12;
      parts.push(
        `<rect class="mark" x="${n(bx)}" y="${by}" width="${n(Math.max(1, Math.abs(w)))}" height="10" fill="${COLORS[kind]}"><title>${escapeHtml(f.field)}: ${v.toFixed(2)} bits on average in ${kind} pairs</title></rect>`,
      );
      parts.push(
        `<text x="${n(w >= 0 ? bx + Math.abs(w) + 4 : bx - 4)}" y="${by + 9}" text-anchor="${w >= 0 ? 'start' : 'end'}" font-size="10" fill="${COLORS.axis}">${signed(v)}</text>`,
      );
    }
  });
  return `<svg data-chart="fields" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="Mean match weight per field">${parts.join('')}</svg>`;
}

/** A small inline bar for one field's weight in a pair's explanation. */
export function weightBarSvg(weight: number, maxAbs: number): string {
  const W = 160;
  const half = W / 2;
  const w = Math.min(half, (Math.abs(weight) / Math.max(1, maxAbs)) * half);
  const x = weight >= 0 ? half : half - w;
  const color = weight >= 0 ? COLORS.matched : COLORS.threshold;
  return `<svg class="wbar" viewBox="0 0 ${W} 12" width="${W}" height="12"><line x1="${half}" x2="${half}" y1="0" y2="12" stroke="#999"/><rect x="${n(x)}" y="2" width="${n(Math.max(1, w))}" height="8" fill="${color}"/></svg>`;
}

/**
 * A waterfall of one pair's weights (Splink's chart): the prior first, then each field that
 * spoke, each bar starting where the previous ended; the last bar ends at the pair's score.
 * The match threshold is a dashed line.
 */
export function waterfallSvg(
  steps: readonly { field: string; label: string; weight: number; before: number; after: number }[],
  threshold: number,
  index: number,
): string {
  const W = 960;
  const rowH = 22;
  const m = { left: 120, right: 70, top: 10, bottom: 26 };
  const H = m.top + m.bottom + Math.max(1, steps.length + 1) * rowH;
  const values = [0, threshold, ...steps.flatMap((s) => [s.before, s.after])];
  const lo = Math.min(...values) - 1;
  const hi = Math.max(...values) + 1;
  const plotW = W - m.left - m.right;
  const x = (v: number): number => m.left + ((v - lo) / (hi - lo)) * plotW;
  const parts: string[] = [];
  parts.push(`<line x1="${n(x(0))}" x2="${n(x(0))}" y1="${m.top}" y2="${H - m.bottom}" stroke="${COLORS.grid}"/>`);
  steps.forEach((s, i) => {
    const top = m.top + i * rowH;
    const a = Math.min(x(s.before), x(s.after));
    const w = Math.max(1, Math.abs(x(s.after) - x(s.before)));
    const color = s.weight >= 0 ? COLORS.matched : COLORS.threshold;
    parts.push(`<text x="${m.left - 8}" y="${top + 15}" text-anchor="end" font-size="11" fill="#222">${escapeHtml(s.field)}</text>`);
    parts.push(
      `<rect class="mark" x="${n(a)}" y="${top + 4}" width="${n(w)}" height="${rowH - 8}" fill="${color}"><title>${escapeHtml(s.label)}: ${signed(s.weight)} bits</title></rect>`,
    );
    parts.push(`<text x="${n(Math.max(x(s.before), x(s.after)) + 4)}" y="${top + 15}" font-size="10" fill="${COLORS.axis}">${signed(s.weight)}</text>`);
  });
  const last = steps[steps.length - 1];
  const total = last === undefined ? 0 : last.after;
  const totalTop = m.top + steps.length * rowH;
  parts.push(`<text x="${m.left - 8}" y="${totalTop + 15}" text-anchor="end" font-size="11" font-weight="600" fill="#222">score</text>`);
  parts.push(
    `<rect class="mark" x="${n(Math.min(x(0), x(total)))}" y="${totalTop + 4}" width="${n(Math.max(1, Math.abs(x(total) - x(0))))}" height="${rowH - 8}" fill="${total >= threshold ? COLORS.matched : COLORS.possible}"><title>total: ${signed(total)} bits</title></rect>`,
  );
  parts.push(
    `<line class="threshold" x1="${n(x(threshold))}" x2="${n(x(threshold))}" y1="${m.top}" y2="${H - m.bottom + 4}" stroke="${COLORS.threshold}" stroke-width="2" stroke-dasharray="6 4"/>`,
  );
  parts.push(`<text x="${n(x(threshold))}" y="${H - 6}" text-anchor="middle" font-size="11" fill="${COLORS.threshold}">match ≥ ${n(threshold)} bits</text>`);
  return `<svg data-chart="waterfall-${index}" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="Weights of the pair, added up">${parts.join('')}</svg>`;
}

export { COLORS };
