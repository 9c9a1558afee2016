"use client";

import { createContext, useContext, useEffect, useState } from "react";
import { TrajectoryQueue, type QueueStatus } from "@/lib/client/trajectory-queue";
import { markTab, TAB_BEAT_MS, tabWriterId } from "@/lib/client/tab-writer";

/**
 * The browser's outbox of events and submissions for the signed-in user (lib/client/trajectory-queue.ts),
 * one per page: the (annotate) layout provides it, so that whatever an earlier visit left unsent
 * goes out on any annotator page, not only on the item page. It retries when the browser comes
 * back online and hands pending events to navigator.sendBeacon when the page goes away. It names
 * this tab as the writer of what it sends (lib/client/tab-writer.ts), and keeps saying that the
 * tab is open, for the other tabs of this browser.
 */
const QueueContext = createContext<TrajectoryQueue | null>(null);

export function outboxKey(userId: string): string {
  return `yardstick:outbox:v1:${userId}`;
}

export function TrajectoryQueueProvider({ userId, children }: { userId: string; children: React.ReactNode }) {
  // created in the browser only (the server render has no localStorage; the item page itself renders client-side)
  const [queue] = useState(() =>
    typeof window === "undefined"
      ? null
      : new TrajectoryQueue({
          storage: window.localStorage,
          key: outboxKey(userId),
          fetch: window.fetch.bind(window),
          writer: tabWriterId(window.sessionStorage, () => crypto.randomUUID()),
        }),
  );

  useEffect(() => {
    if (!queue) return;
    const writer = queue.writer();
    const beat = () => markTab(window.localStorage, writer, Date.now());
    beat();
    const beating = window.setInterval(beat, TAB_BEAT_MS);
    const online = () => queue.online();
    const pagehide = () => {
      if (typeof navigator.sendBeacon === "function") queue.flushBeacon((url, data) => navigator.sendBeacon(url, data));
      markTab(window.localStorage, writer, Date.now(), true);
    };
    window.addEventListener("online", online);
    window.addEventListener("pagehide", pagehide);
    window.addEventListener("pageshow", beat);
    // whatever an earlier visit left behind goes out now
    void queue.flush();
    return () => {
      window.clearInterval(beating);
      window.removeEventListener("online", online);
      window.removeEventListener("pagehide", pagehide);
      window.removeEventListener("pageshow", beat);
    };
  }, [queue]);

  return <QueueContext.Provider value={queue}>{children}</QueueContext.Provider>;
}

export function useTrajectoryQueue(): TrajectoryQueue {
  const queue = useContext(QueueContext);
  if (!queue) throw new Error("useTrajectoryQueue must be used inside <TrajectoryQueueProvider>");
  return queue;
}

/** The queue, or null during the server render (there is no browser storage there): for components that also render on the server. */
export function useOptionalTrajectoryQueue(): TrajectoryQueue | null {
  return useContext(QueueContext);
}

/** The queue's status, re-rendering on every change. */
export function useQueueStatus(): QueueStatus {
  const queue = useTrajectoryQueue();
  const [status, setStatus] = useState<QueueStatus>(() => queue.status());
  useEffect(() => {
    const unsubscribe = queue.subscribe(setStatus);
    return () => {
      unsubscribe();
    };
  }, [queue]);
  return status;
}

/** "All changes saved" / "Saving..." / "Offline: saved on this device" */
export function SyncStatus() {
  const status = useQueueStatus();
  const pending = status.pendingEvents + status.pendingSubmissions;
  let tone = "text-slate-500";
  let text = "All changes saved";
  if (status.offline) {
    tone = "text-amber-700 bg-amber-50 ring-1 ring-amber-200";
    text = `Offline · saved on this device (${pending})`;
  } else if (pending > 0) {
    text = "Saving…";
  }
  return (
    <span
      role="status"
      aria-live="polite"
      title={status.offline ? "Your work is kept in this browser and sent as soon as the connection is back" : undefined}
      data-testid="sync-status"
      data-offline={status.offline ? "true" : "false"}
      data-pending={pending}
      className={`rounded-full px-2 py-0.5 text-xs ${tone}`}
    >
      {text}
    </span>
  );
}
