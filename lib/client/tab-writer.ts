/**
 * This tab's writer id (lib/responses/writer.ts) and the tabs of this browser that are open.
 *
 * The id lives in sessionStorage, which is the tab's own: a reload is the same writer (the item
 * stays this tab's), another tab or another device is another. The open tabs are listed in
 * localStorage with a heartbeat, so that a page that finds its item claimed by a tab of this very
 * browser that was closed (or crashed) takes it over without asking: only a tab that is still
 * open, or another device, makes the page ask.
 *
 * Framework-free: storages and clocks are passed in (tests use fakes).
 */

export interface SmallStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const WRITER_KEY = "yardstick:writer:v1";
const TABS_KEY = "yardstick:tabs:v1";
/** how often an open tab says so */
export const TAB_BEAT_MS = 3_000;
/** a tab silent this long is gone (a crash, a closed laptop) */
const TAB_GONE_MS = 4 * TAB_BEAT_MS;
/** entries of tabs gone longer than this are dropped */
const TAB_FORGET_MS = 24 * 3600_000;

export function tabWriterId(session: SmallStorage, newId: () => string): string {
  try {
    const existing = session.getItem(WRITER_KEY);
    if (existing && /^[A-Za-z0-9_-]{1,64}$/.test(existing)) return existing;
    const id = newId()
      .replace(/[^A-Za-z0-9_-]/g, "")
      .slice(0, 64);
    session.setItem(WRITER_KEY, id);
    return id;
  } catch {
    // no sessionStorage (a privacy mode): one writer per page load
    return newId()
      .replace(/[^A-Za-z0-9_-]/g, "")
      .slice(0, 64);
  }
}

type Tabs = Record<string, { beat: number; closed: boolean }>;

function readTabs(local: SmallStorage): Tabs {
  try {
    const parsed = JSON.parse(local.getItem(TABS_KEY) ?? "{}") as unknown;
    return parsed && typeof parsed === "object" ? (parsed as Tabs) : {};
  } catch {
    return {};
  }
}

function writeTabs(local: SmallStorage, tabs: Tabs): void {
  try {
    local.setItem(TABS_KEY, JSON.stringify(tabs));
  } catch {
    // a full storage: the page then asks before taking over, which is safe
  }
}

/** This tab is open (`closed`: it is going away). */
export function markTab(local: SmallStorage, writer: string, now: number, closed = false): void {
  const tabs = readTabs(local);
  for (const [id, tab] of Object.entries(tabs)) if (now - tab.beat > TAB_FORGET_MS) delete tabs[id];
  tabs[writer] = { beat: now, closed };
  writeTabs(local, tabs);
}

/** True when `writer` was a tab of this browser that is closed or gone (not one still open, nor another device's). */
export function isGoneLocalTab(local: SmallStorage, writer: string, now: number): boolean {
  const tab = readTabs(local)[writer];
  return tab !== undefined && (tab.closed || now - tab.beat > TAB_GONE_MS);
}
