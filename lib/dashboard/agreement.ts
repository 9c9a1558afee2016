import { ALL, UNTAGGED } from "@/lib/dashboard/accuracy";
import { BOOTSTRAP_RESAMPLES, INTERVAL_COMPUTING } from "@/lib/dashboard/constants";
import type { AlphaLevelChoice, CiMethod } from "@/lib/dashboard/params";
import { compareTagValues } from "@/lib/dashboard/snapshot-utils";
import { alphaCoincidences, type AlphaMetric, type AlphaValue } from "@/lib/stats/alpha-coincidences";
import { kendallPermutationUnits, kendallPermutationAlphaStratifiedBootstrap, KENDALL_PERMUTATION_METRIC } from "@/lib/stats/kendall-permutation-alpha";
import { krippendorffAlphaStratifiedBootstrap } from "@/lib/stats/krippendorff-alpha-stratified-bootstrap";
import { krippendorffAlphaPigeonhole } from "@/lib/stats/krippendorff-alpha-pigeonhole";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";
import { mulberry32 } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import {
  blockEstimate,
  blockInterval,
  blockParts,
  formatCount,
  pairwiseAndLeaveOneOut,
  parsePermutationValue,
  unionOfParts,
  type AlphaBlockParts,
  type AlphaBlockTable,
  type AlphaUnitTable,
  type BetweenCoders,
  type PairwiseAlphas,
  type Share,
} from "@/lib/stats/alpha-blocks";
import { getTaskModule } from "@/lib/tasks";
import type { AgreementContext, AgreementEncoding, AgreementLevel } from "@/lib/tasks/types";

/**
 * Inter-annotator agreement with each kind's agreement encodings (lib/tasks): Krippendorff's
 * alpha at the chosen level, a seeded 95% percentile bootstrap CI (by default over items and
 * people: the pigeonhole bootstrap, items and annotators drawn independently,
 * lib/stats/krippendorff-alpha-pigeonhole.ts; over items alone when the study takes its people as
 * the population; or, chosen, over units, or Krippendorff's KALPHA algorithm), pairwise alphas, leave-one-annotator-out alphas and
 * the perfect-agreement share (in the encoding's units and in whole items), overall, per kind and
 * per kind x tag value. Pure: the caller passes each item's answers by annotator index.
 */

export interface AgreementItem {
  kind: string;
  tag: string | null;
  /** the item's answer key, for encodings that code the score (needsContext) */
  key?: unknown;
  ratings: Array<{ coder: number; answer: unknown; score?: unknown }>;
}

export interface AgreementOptions {
  encodingId: string;
  level: AlphaLevelChoice;
  ci: CiMethod;
  /** mixed into every bootstrap seed: the same page shows the same numbers on reload */
  seedKey: string;
  resamples?: number;
  /** compute per kind x tag cells (the dashboard) or only the overall block (the plan) */
  breakdown?: boolean;
  /** the tag that defines the cells, for descriptions ("steps") */
  tagLabel?: string;
  /** false: no bootstrap now, every interval "computing" (a background job computes them: INLINE_INTERVALS_MAX_ANSWERS) */
  intervals?: boolean;
  /**
   * what the default interval ("items") generalises over: people and items (the pigeonhole
   * bootstrap; the default) or items alone (these annotators are the population)
   */
  over?: GeneraliseOver;
}

export interface AlphaBlock {
  alpha: number | null;
  /** why alpha is null */
  reason?: string;
  ci: [number, number] | null;
  ciReason?: string;
  ciDescription: string;
  /** pairable units (units with at least 2 answers) */
  units: number;
  /** items with at least 2 answers */
  items: number;
  /** pairable values */
  values: number;
  /** units on which all answers are identical */
  perfectUnits: Share;
  /** items on which all answers are identical */
  perfectItems: Share;
}

export interface EncodingInfo {
  id: string;
  label: string;
  level: AgreementLevel | "custom";
  /** what one unit is when an item holds several (AgreementEncoding.unitNoun); absent: the item */
  unitNoun?: string;
}

export type { BetweenCoders, PairwiseAlphas, Share };

export interface AgreementResult extends BetweenCoders {
  encoding: EncodingInfo;
  level: AlphaLevelChoice;
  /** names the metric (level, or the custom distance) */
  metricName: string;
  ci: CiMethod;
  /** annotator indices that have answers in the agreement set, in order */
  coders: number[];
  overall: AlphaBlock;
  byKind: Array<{ kind: string; cells: Record<string, AlphaBlock> }>;
  tagValues: string[];
  notes: string[];
}

/** Levels that make sense for an encoding's values. */
export function allowedLevels(encoding: Pick<AgreementEncoding, "level">): AlphaLevelChoice[] {
  switch (encoding.level) {
    case "custom":
      return ["custom", "nominal"];
    case "nominal":
      return ["nominal"];
    case "ordinal":
      return ["ordinal", "nominal", "interval"];
    case "interval":
      return ["interval", "ordinal", "nominal"];
    case "ratio":
      return ["ratio", "interval", "ordinal", "nominal"];
  }
}

/**
 * The encodings offered for a set of kinds: every encoding of any kind, by id, in the kinds'
 * order (kinds without the chosen one are left out of its alpha and named in the notes).
 */
export function encodingsForKinds(kinds: string[]): EncodingInfo[] {
  const seen = new Map<string, EncodingInfo>();
  for (const kind of kinds)
    for (const { id, label, level, unitNoun } of getTaskModule(kind).agreementEncodings)
      if (!seen.has(id)) seen.set(id, { id, label, level, ...(unitNoun ? { unitNoun } : {}) });
  return [...seen.values()];
}

/** The encoding a view shows when none is chosen: the first ordinal one (the level ENACT reports), else the first. */
export function defaultEncoding<T extends Pick<EncodingInfo, "level">>(encodings: readonly T[]): T | null {
  return encodings.find((e) => e.level === "ordinal") ?? encodings[0] ?? null;
}

/** Kinds that have an encoding which codes the score and needs the item's key (needsContext). */
export function kindsNeedingKeys(kinds: string[]): string[] {
  return kinds.filter((kind) => getTaskModule(kind).agreementEncodings.some((e) => e.needsContext));
}

/** an encoding's units of answer objects that need no context: equal answers share one object in the snapshot */
const encodedUnits = new WeakMap<AgreementEncoding, WeakMap<object, ReturnType<AgreementEncoding["units"]>>>();

function unitsOfAnswer(encoding: AgreementEncoding, answer: unknown, context: AgreementContext | undefined): ReturnType<AgreementEncoding["units"]> {
  if (encoding.needsContext || answer === null || typeof answer !== "object") return encoding.units(answer, context);
  let cache = encodedUnits.get(encoding);
  if (!cache) encodedUnits.set(encoding, (cache = new WeakMap()));
  let units = cache.get(answer);
  if (!units) cache.set(answer, (units = encoding.units(answer, context)));
  return units;
}

/**
 * What agreement needs of the items under one encoding and level, whatever the tag that slices
 * them: the units table, each unit's parts of the coincidence matrix, the parsed orders of the
 * permutation encoding, and (computed once, on first use) the pairwise and leave-one-out alphas,
 * which do not depend on the tag. The dashboard keeps it per snapshot, encoding and level, so that
 * re-slicing by another tag only sums units into the new cells.
 */
export interface PreparedAgreement extends AlphaBlockTable {
  /** the kinds of the items given, sorted, and each item's kind */
  kinds: string[];
  itemKinds: string[];
  first: AgreementEncoding;
  level: AlphaLevelChoice;
  notes: string[];
  /** indices into the items given, of the items kept (two answers or more under the encoding) */
  keptItems: number[];
  between: () => BetweenCoders;
}

export function prepareAgreement(
  items: ReadonlyArray<Omit<AgreementItem, "tag">>,
  options: Pick<AgreementOptions, "encodingId" | "level">,
): PreparedAgreement | null {
  const kinds = [...new Set(items.map((item) => item.kind))].sort();
  const encodings = new Map<string, AgreementEncoding>();
  const notes: string[] = [];
  for (const kind of kinds) {
    const encoding = getTaskModule(kind).agreementEncodings.find((e) => e.id === options.encodingId);
    if (encoding) encodings.set(kind, encoding);
    else notes.push(`${kind} has no encoding "${options.encodingId}" and is left out`);
  }
  const first = encodings.values().next().value as AgreementEncoding | undefined;
  if (!first) return null;
  const level = allowedLevels(first).includes(options.level) ? options.level : allowedLevels(first)[0];
  if (level !== options.level) notes.push(`level ${options.level} does not suit this encoding; ${level} is used`);
  const metric: AlphaMetric = level === "custom" ? { name: `${first.id} distance`, deltaSquared: (a, b) => first.distance!(a, b) } : level;

  // units, one table for everything; items with >= 2 answers only
  const table: AlphaUnitTable = { units: [], unitCoders: [], unitItem: [] };
  const keptItems: number[] = [];
  const itemUnits: number[][] = [];
  const itemAgrees: boolean[] = [];
  const codersSeen = new Set<number>();
  const pendingValues: AlphaValue[][] = [];
  const pendingCoders: number[][] = [];
  items.forEach((item, itemIndexGiven) => {
    const encoding = encodings.get(item.kind);
    if (!encoding) return;
    // each coder's last rating, in coder order
    const chosen: Array<AgreementItem["ratings"][number]> = [];
    for (const rating of item.ratings) {
      const at = chosen.findIndex((r) => r.coder === rating.coder);
      if (at >= 0) chosen[at] = rating;
      else chosen.push(rating);
    }
    if (chosen.length < 2) return;
    chosen.sort((a, b) => a.coder - b.coder);
    const itemIndex = keptItems.length;
    keptItems.push(itemIndexGiven);
    // the item's unit names and their ids: a short list searched in place (a Map past a few dozen)
    const unitNames: string[] = [];
    let unitIndex: Map<string, number> | null = null;
    // the item agrees when every answer is the same (as JSON): the same object is, at once
    const firstAnswer = chosen[0].answer;
    let firstText: string | null = null;
    let agrees = true;
    for (const { coder, answer, score } of chosen) {
      codersSeen.add(coder);
      if (agrees && answer !== firstAnswer) {
        firstText ??= JSON.stringify(firstAnswer);
        agrees = JSON.stringify(answer) === firstText;
      }
      for (const { unit, value } of unitsOfAnswer(encoding, answer, encoding.needsContext ? { key: item.key, score } : undefined)) {
        // k: the unit's place among the item's units; its values wait in reused lists until the item is done
        let k: number | undefined;
        if (unitIndex) k = unitIndex.get(unit);
        else {
          const at = unitNames.indexOf(unit);
          if (at >= 0) k = at;
        }
        if (k === undefined) {
          k = unitNames.length;
          if (unitIndex) unitIndex.set(unit, k);
          if (unitNames.push(unit) > 32 && !unitIndex) unitIndex = new Map(unitNames.map((name, i) => [name, i]));
          if (pendingValues.length <= k) {
            pendingValues.push([]);
            pendingCoders.push([]);
          }
        }
        pendingValues[k].push(value);
        pendingCoders[k].push(coder);
      }
    }
    // each unit's arrays at their exact size (a pushed-to empty array reserves 16 places)
    const mine: number[] = [];
    for (let k = 0; k < unitNames.length; k++) {
      mine.push(table.units.length);
      table.units.push(pendingValues[k].slice());
      table.unitCoders.push(pendingCoders[k].slice());
      table.unitItem.push(itemIndex);
      pendingValues[k].length = 0;
      pendingCoders[k].length = 0;
    }
    itemUnits.push(mine);
    itemAgrees.push(agrees);
  });

  let fast = first.kendallPermutations === true && level === "custom";
  let orders: Array<Array<number[] | null>> | null = null;
  if (fast) {
    // orders repeat (answers to one item, and across items): each text parsed once, the arrays shared (read only)
    const parsed = new Map<AlphaValue, number[] | null>();
    const parse = (v: AlphaValue) => {
      let order = parsed.get(v);
      if (order === undefined) parsed.set(v, (order = parsePermutationValue(v)));
      return order;
    };
    orders = table.units.map((unit) => unit.map(parse));
    fast = orders.every((unit) => unit.every((order) => order !== null));
    if (!fast) orders = null;
  }
  const U = table.units.length;
  const pairableIndex = new Int32Array(U);
  const unitSame = new Uint8Array(U);
  let pairable = 0;
  for (let u = 0; u < U; u++) {
    // pairable: two values or more (as perfectAgreementShare counts them); same: all of them equal
    let m = 0;
    let first: AlphaValue | null = null;
    let same = true;
    for (const v of table.units[u]) {
      if (v === null || v === undefined) continue;
      if (m === 0) first = v;
      else if (v !== first) same = false;
      m++;
    }
    if (m < 2) {
      pairableIndex[u] = -1;
      continue;
    }
    pairableIndex[u] = pairable++;
    unitSame[u] = same ? 1 : 0;
  }
  const coincidences = !fast && typeof metric === "string" ? alphaCoincidences(table.units, metric, { perUnit: true }) : null;
  const coders = [...codersSeen].sort((a, b) => a - b);
  let between: BetweenCoders | null = null;
  const prep: PreparedAgreement = {
    kinds,
    itemKinds: items.map((item) => item.kind),
    first,
    level,
    metric,
    notes,
    table,
    keptItems,
    itemUnits,
    itemAgrees,
    coders,
    fast,
    orders,
    kendallUnits: orders ? kendallPermutationUnits(orders) : null,
    coincidences,
    pairableIndex,
    unitSame,
    between: () => (between ??= pairwiseAndLeaveOneOut(prep)),
  };
  return prep;
}

/**
 * Agreement of the items' answers under one encoding and level. Items with fewer than two
 * answers are left out (they carry no agreement information). Kinds without the encoding are
 * left out and named in notes.
 */
export function computeAgreement(items: AgreementItem[], coderCount: number, options: AgreementOptions): AgreementResult | null {
  const prep = prepareAgreement(items, options);
  return prep
    ? agreementOfPrepared(
        prep,
        items.map((item) => item.tag),
        options,
      )
    : null;
}

/** Agreement from a prepared table, sliced by `tags` (the tag value of each item given to prepareAgreement). */
export function agreementOfPrepared(prep: PreparedAgreement, tags: ReadonlyArray<string | null>, options: AgreementOptions): AgreementResult {
  const { first, level, metric, notes: prepNotes, table, itemUnits, fast } = prep;
  const notes = [...prepNotes];
  const resolved = { ...options, level };
  const { kinds } = prep;
  const keptItems = prep.keptItems.map((given) => ({ kind: prep.itemKinds[given], tag: tags[given] }));

  // strata: kind x tag value cells; groups: each kind, then everything
  const cellIndex = new Map<string, number>();
  const cellOfItem = keptItems.map((item) => {
    const key = `${item.kind}\u0000${item.tag ?? UNTAGGED}`;
    let c = cellIndex.get(key);
    if (c === undefined) {
      c = cellIndex.size;
      cellIndex.set(key, c);
    }
    return c;
  });
  const cells = [...cellIndex.entries()].map(([key, index]) => ({ kind: key.split("\u0000")[0], tag: key.split("\u0000")[1], index }));
  const kindGroups = kinds
    .filter((kind) => cells.some((c) => c.kind === kind))
    .map((kind) => ({ kind, strata: cells.filter((c) => c.kind === kind).map((c) => c.index) }));
  const allStrata = cells.map((c) => c.index);
  const itemsOfCell = cells.map(() => [] as number[]);
  cellOfItem.forEach((c, i) => itemsOfCell[c].push(i));
  const unitsOf = (itemIds: number[]): number[] => {
    let count = 0;
    for (const i of itemIds) count += itemUnits[i].length;
    const out = new Array<number>(count);
    let at = 0;
    for (const i of itemIds) for (const u of itemUnits[i]) out[at++] = u;
    return out;
  };

  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  let intervals: { strata: Array<{ ci: [number, number] | null; reason?: string }>; groups: Array<{ ci: [number, number] | null; reason?: string }> } | null =
    null;
  let itemsDescription = "";
  const computeIntervals = options.intervals !== false;
  const over = options.over ?? "people+items";
  if (options.ci === "items" && keptItems.length > 0) {
    const groups = [...kindGroups.map((g) => g.strata), allStrata];
    const perItem = table.units.length > keptItems.length;
    itemsDescription =
      over === "people+items"
        ? `95% percentile pigeonhole bootstrap (Owen 2007): items${perItem ? " (each with all its units)" : ""}, resampled within each kind x ${options.tagLabel ?? "tag"} cell, and annotators drawn independently (two copies of one annotator never paired)`
        : `95% percentile bootstrap over items${perItem ? " (each with all its units)" : ""}, resampled within each kind x ${options.tagLabel ?? "tag"} cell (these annotators taken as the population)`;
    if (!computeIntervals) {
      const computing = { ci: null, reason: INTERVAL_COMPUTING };
      intervals = { strata: cells.map(() => computing), groups: groups.map(() => computing) };
    }
  }
  if (options.ci === "items" && keptItems.length > 0 && computeIntervals) {
    const groups = [...kindGroups.map((g) => g.strata), allStrata];
    const rng = mulberry32(seedFromString(`${options.seedKey}|${options.encodingId}|${level}|items`));
    const unitIds = unitsOf(keptItems.map((_, i) => i));
    const clusterOf = unitIds.map((u) => table.unitItem[u]);
    if (over === "people+items") {
      const input = fast
        ? { metric: "kendall-permutation" as const, units: unitIds.map((u) => prep.orders![u] as number[][]) }
        : { metric, units: unitIds.map((u) => table.units[u]) };
      const rngBoth = mulberry32(seedFromString(`${options.seedKey}|${options.encodingId}|${level}|items|people+items`));
      intervals = krippendorffAlphaPigeonhole(
        input,
        unitIds.map((u) => table.unitCoders[u]),
        clusterOf,
        (item) => cellOfItem[item],
        cells.length,
        groups,
        rngBoth,
        { resamples },
      );
    } else {
      const boot = fast
        ? kendallPermutationAlphaStratifiedBootstrap(
            unitIds.map((u) => prep.orders![u] as number[][]),
            clusterOf,
            (item) => cellOfItem[item],
            cells.length,
            groups,
            rng,
            { resamples },
          )
        : krippendorffAlphaStratifiedBootstrap(
            unitIds.map((u) => table.units[u]),
            clusterOf,
            (item) => cellOfItem[item],
            cells.length,
            groups,
            metric,
            rng,
            { resamples },
          );
      // one item's resamples are all the same: say so, as the pigeonhole bootstrap does
      const oneItem = (block: (typeof boot.strata)[number]) =>
        block.clusters < 2 && block.estimate !== null ? { ...block, ci: null, reason: "one item" } : block;
      intervals = { strata: boot.strata.map(oneItem), groups: boot.groups.map(oneItem) };
    }
  }
  const describeItems = (items: number) => `${itemsDescription} (${formatCount(resamples)} resamples of ${formatCount(items)} items)`;
  const block = (itemIds: number[], parts: AlphaBlockParts, key: string, interval: { ci: [number, number] | null; reason?: string } | null): AlphaBlock => {
    const estimate = blockEstimate(prep, parts);
    if (interval) {
      return {
        ...estimate,
        ci: estimate.alpha === null ? null : interval.ci,
        ...(interval.ci && estimate.alpha !== null ? {} : { ciReason: estimate.alpha === null ? `alpha is undefined (${estimate.reason})` : interval.reason }),
        ciDescription: describeItems(itemIds.length),
      };
    }
    if (estimate.alpha === null)
      return {
        ...estimate,
        ci: null,
        ciReason: `alpha is undefined (${estimate.reason})`,
        ciDescription: options.ci === "kalpha" ? "95% bootstrap by Krippendorff's KALPHA algorithm" : "95% percentile bootstrap over units",
      };
    if (!computeIntervals)
      return {
        ...estimate,
        ci: null,
        ciReason: INTERVAL_COMPUTING,
        ciDescription: options.ci === "kalpha" ? "95% bootstrap by Krippendorff's KALPHA algorithm" : "95% percentile bootstrap over units",
      };
    const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
    const rng = mulberry32(seedFromString(`${resolved.seedKey}|${resolved.encodingId}|${resolved.level}|${resolved.ci}|${key}`));
    return { ...estimate, ...blockInterval(table, unitsOf(itemIds), metric, fast, resolved.ci === "units" ? "units" : "kalpha", resamples, rng) };
  };
  // each cell's parts once; a kind's and the overall block add them up
  const cellParts = itemsOfCell.map((itemIds) => blockParts(prep, itemIds));
  const allItems = keptItems.map((_, i) => i);
  const overall = block(
    allItems,
    unionOfParts(cellParts.length > 0 ? cellParts : [blockParts(prep, [])]),
    "overall",
    intervals ? intervals.groups[kindGroups.length] : null,
  );

  const { coders } = prep;
  const { pairwise, leaveOneOut } = prep.between();

  const byKind: AgreementResult["byKind"] = [];
  const tagValues = new Set<string>();
  if (options.breakdown !== false) {
    kindGroups.forEach(({ kind, strata }, g) => {
      const cellsOfKind: Record<string, AlphaBlock> = {};
      for (const s of strata) {
        const cell = cells[s];
        tagValues.add(cell.tag);
        cellsOfKind[cell.tag] = block(itemsOfCell[s], cellParts[s], `${kind}|${cell.tag}`, intervals ? intervals.strata[s] : null);
      }
      cellsOfKind[ALL] =
        strata.length === 1
          ? cellsOfKind[cells[strata[0]].tag]
          : block(
              strata.flatMap((s) => itemsOfCell[s]),
              unionOfParts(strata.map((s) => cellParts[s])),
              `${kind}|${ALL}`,
              intervals ? intervals.groups[g] : null,
            );
      byKind.push({ kind, cells: cellsOfKind });
    });
  }

  return {
    encoding: { id: first.id, label: first.label, level: first.level, ...(first.unitNoun ? { unitNoun: first.unitNoun } : {}) },
    level,
    metricName: fast ? KENDALL_PERMUTATION_METRIC : typeof metric === "string" ? metric : metric.name,
    ci: options.ci,
    coders,
    overall,
    pairwise,
    leaveOneOut,
    byKind,
    tagValues: [...tagValues].sort(compareTagValues),
    notes,
  };
}
