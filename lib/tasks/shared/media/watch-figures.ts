import { watchStats, type WatchStats } from "@/lib/tasks/shared/media/events";
import type { RecordedEvent } from "@/lib/tasks/types";

/**
 * Watch figures per item from each answer's player events (pure; lib/tasks/shared/media/watch.ts
 * loads the events): per item, the people with a submitted answer, their mean watch time (s),
 * mean share watched (over those whose events logged a duration), replays, seeks and blocked seeks
 * summed; and the same means pooled over every answer.
 */

export interface WatchItemRow {
  itemId: string;
  externalId: string;
  /** answers (people) */
  people: number;
  /** mean watch time per person, seconds */
  watchSeconds: number | null;
  /** mean share watched per person (those with a known duration), [0, 1] */
  shareWatched: number | null;
  /** people who reached the end at least once */
  ended: number;
  replays: number;
  seeks: number;
  blockedSeeks: number;
  /** synced pairs: people who saw side A on the left */
  aLeft: number;
}

export interface WatchFigures {
  items: WatchItemRow[];
  pooled: { people: number; watchSeconds: number | null; shareWatched: number | null };
}

export interface WatchAnswer {
  itemId: string;
  events: ReadonlyArray<RecordedEvent>;
}

const meanOf = (values: number[]): number | null => (values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length);

export function watchFigures(answers: ReadonlyArray<WatchAnswer>, items: ReadonlyArray<{ id: string; externalId: string }>): WatchFigures {
  const byItem = new Map<string, WatchStats[]>();
  for (const answer of answers) {
    let list = byItem.get(answer.itemId);
    if (!list) byItem.set(answer.itemId, (list = []));
    list.push(watchStats(answer.events));
  }
  const all: WatchStats[] = [];
  const rows: WatchItemRow[] = [];
  for (const item of items) {
    const stats = byItem.get(item.id) ?? [];
    all.push(...stats);
    rows.push({
      itemId: item.id,
      externalId: item.externalId,
      people: stats.length,
      watchSeconds: meanOf(stats.map((s) => s.watchSeconds)),
      shareWatched: meanOf(stats.flatMap((s) => (s.shareWatched === null ? [] : [s.shareWatched]))),
      ended: stats.filter((s) => s.ended).length,
      replays: stats.reduce((sum, s) => sum + s.replays, 0),
      seeks: stats.reduce((sum, s) => sum + s.seeks, 0),
      blockedSeeks: stats.reduce((sum, s) => sum + s.blockedSeeks, 0),
      aLeft: stats.filter((s) => s.left === "a").length,
    });
  }
  return {
    items: rows,
    pooled: {
      people: all.length,
      watchSeconds: meanOf(all.map((s) => s.watchSeconds)),
      shareWatched: meanOf(all.flatMap((s) => (s.shareWatched === null ? [] : [s.shareWatched]))),
    },
  };
}
