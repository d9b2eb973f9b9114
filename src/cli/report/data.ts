/** What the HTML report shows: plain data, built by the commands, rendered by html.ts. */

/** One row of the input as shown: its id and the values of the columns used for matching. */
export interface ShownRow {
  readonly id: string;
  readonly values: readonly string[];
}

/** Per-row best scores in 1-bit bins, by what the best candidate was. */
export interface ScoreHistogram {
  /** Lower edge of the first bin, in bits. */
  readonly start: number;
  readonly width: number;
  readonly matched: readonly number[];
  readonly possible: readonly number[];
  /** Rows with no candidate above the review threshold (estimated from a sample). */
  readonly below: readonly number[];
  /** How the "below" counts were estimated, for the caption. */
  readonly belowNote: string;
}

/** Mean match weight a field gave, over sampled pairs of each kind. */
export interface FieldContribution {
  readonly field: string;
  readonly matched: number;
  readonly possible: number;
}

/** The model a run scored with: each comparison's levels with m, u and weight. */
export interface ModelView {
  /** Lines saying how the model was obtained. */
  readonly description: readonly string[];
  readonly comparisons: readonly {
    readonly field: string;
    /** "estimated", "fallback" (degenerate estimate), "prior", or "" for a given model. */
    readonly source: string;
    readonly levels: readonly { readonly level: string; readonly label: string; readonly m: number; readonly u: number; readonly weight: number }[];
  }[];
}

/** A pair near the match threshold, with its explanation. */
export interface BorderlinePair {
  readonly score: number;
  readonly decision: string;
  readonly left: ShownRow;
  readonly right: ShownRow;
  readonly explanation: readonly { readonly field: string; readonly label: string; readonly weight: number }[];
  /** Why a Possible pair is not Matched (the CSV's match_note). */
  readonly note?: string;
}

/** A cluster of rows found to be one person. */
export interface ShownCluster {
  readonly id: string;
  readonly size: number;
  readonly rows: readonly ShownRow[];
}

/** The report. */
export interface ReportData {
  readonly title: string;
  readonly subtitle: string;
  /** The command's summary lines. */
  readonly summary: readonly string[];
  /** Headline figures. */
  readonly figures: readonly { readonly label: string; readonly value: string }[];
  readonly thresholds: { readonly match: number; readonly possible: number };
  readonly histogram: ScoreHistogram;
  readonly fields: readonly FieldContribution[];
  /** How many pairs the field means are over. */
  readonly fieldSample: { readonly matched: number; readonly possible: number };
  /** Column names of ShownRow.values (the left file's, for link; right ones in `rightColumns`). */
  readonly columns: readonly string[];
  readonly rightColumns: readonly string[];
  readonly clusters: readonly ShownCluster[];
  readonly clustersTitle: string;
  /** Shown instead of the clusters when there are none. */
  readonly clustersEmpty: string;
  readonly borderline: readonly BorderlinePair[];
  /** The model (learned rules), or null. */
  readonly model: ModelView | null;
}
