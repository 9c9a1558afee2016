"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import type { AssignmentView } from "@/lib/annotate/assignment-view";
import type { NextView, PracticeStanding } from "@/lib/annotate/next";
import type { Progress } from "@/lib/assignment";
import type { HistoryEvent } from "@/lib/client/annotation-store";
import { SubmissionRefused, type RefusalReason, type TrajectoryQueue } from "@/lib/client/trajectory-queue";
import { isGoneLocalTab } from "@/lib/client/tab-writer";
import { idleCapMs } from "@/lib/timing/active-time";
import type { ResponseAck, ResponseCreateInput } from "@/lib/validations/annotate";
import { callApi } from "@/lib/client/api";
import { AnnotationStoreProvider, useAnnotationStore, useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";
import { ConfidenceInput } from "@/components/annotate/confidence-input";
import { IdleOverlay } from "@/components/annotate/idle-overlay";
import { ProgressBar } from "@/components/annotate/progress-bar";
import { ItemTimer, SessionTimer, ShortcutsButton } from "@/components/annotate/session-extras";
import { SyncStatus, useQueueStatus, useTrajectoryQueue } from "@/components/annotate/queue-provider";
import { getTaskUi, storeInitOf, TaskView, taskUis, type TaskUi } from "@/components/tasks/registry";
import type { PracticeFeedbackInput, PracticeFeedbackView, SlotNote } from "@/components/tasks/shared/types";
import { buttonClass } from "@/components/ui/button";
import { TOUCH_ONLY_QUERY } from "@/lib/client/device";
import { DesktopOnlyNotice } from "@/components/annotate/desktop-only-notice";
import { TeamContact } from "@/components/annotate/team-contact";
import { StudyContactProvider } from "@/components/annotate/study-contact-context";
import type { StudyContact } from "@/lib/studies/contact-text";
import { useSubmitReadiness } from "@/components/annotate/submit-readiness";

/**
 * The annotator's work loop: one item at a time, the next one prefetched while this one is on
 * screen, so submitting shows the next item at once.
 *
 * Offline: a submission is written to the browser's outbox before anything is sent, so it is
 * never lost. A main item's submission does not hold the annotator up: the next item (already
 * prefetched) appears at once and the outbox syncs in the background ("saved on this device, will
 * sync"). Without a prefetched item, or after a practice item (whose feedback comes from the
 * server), the page waits for the acknowledgement, saying so.
 *
 * One tab writes an item at a time (lib/responses/writer.ts): the page claims the item it shows,
 * and when another tab or device writes it, shows so instead of the task, with a button to take
 * it over here. A submission the server refuses (another tab writes the item, or answered it
 * already) is said so above the next item; the page never moves on silently past it.
 */

export interface SessionStudy {
  slug: string;
  title: string;
  confidenceScale: "LIKERT_5" | "PERCENT";
  idleCapSeconds: number;
  /** the visible per-item timer (null: no limit) */
  itemTimeLimitSeconds?: number | null;
  /** when the participant's session time runs out (ms since the epoch; null: no limit) */
  sessionEndsAt?: number | null;
  /** phones and tablets get a notice instead of the task (lib/client/device.ts) */
  desktopOnly?: boolean;
  /** how participants reach the research team, named where a notice tells them to (lib/studies/contact.ts) */
  contact?: StudyContact | null;
}

type Phase =
  | { name: "working" }
  | { name: "checking" }
  | { name: "feedback"; ack: ResponseAck; answer: unknown }
  | { name: "advancing" }
  | { name: "closed" }
  /** the study is paused: the page asks again now and then, and goes on when it reopens */
  | { name: "paused" };

/** Needs the TrajectoryQueueProvider of the (annotate) layout. */
export default function AnnotateSession(props: { study: SessionStudy; initial: NextView }) {
  // phones and tablets that pose as desktops (iPadOS Safari) are caught here; the work page checks the user agent first
  const [phoneOrTablet] = useState(() => props.study.desktopOnly === true && typeof window !== "undefined" && window.matchMedia(TOUCH_ONLY_QUERY).matches);
  if (phoneOrTablet) return <DesktopOnlyNotice slug={props.study.slug} />;
  return (
    <StudyContactProvider contact={props.study.contact ?? null} studyTitle={props.study.title}>
      <SessionLoop {...props} />
    </StudyContactProvider>
  );
}

/** Why the last request for the next item failed: an HTTP status (503: the server is overloaded) or no answer at all. */
interface NextFailure {
  httpStatus: number | null;
  /** the server's Retry-After, in ms */
  retryAfterMs: number | null;
}

async function fetchNextResult(slug: string, exclude: string[]): Promise<{ next: NextView | null; failure: NextFailure | null }> {
  const query = exclude.length > 0 ? `?exclude=${encodeURIComponent(exclude.join(","))}` : "";
  const result = await callApi<NextView>(`/api/annotate/studies/${encodeURIComponent(slug)}/next${query}`, { noStore: true });
  if (result.ok) return result.data === undefined ? { next: null, failure: { httpStatus: null, retryAfterMs: null } } : { next: result.data, failure: null };
  return { next: null, failure: { httpStatus: result.unreachable ? null : result.status, retryAfterMs: result.retryAfterMs ?? null } };
}

async function fetchNext(slug: string, exclude: string[]): Promise<NextView | null> {
  return (await fetchNextResult(slug, exclude)).next;
}

/** Waits between asks for the next item: 1, 2, 4, 8, 16, then 30 s (or the server's Retry-After, at most 30 s). */
export function nextRetryDelayMs(attempt: number, retryAfterMs: number | null = null): number {
  return Math.min(30_000, Math.max(retryAfterMs ?? 0, 1000 * 2 ** Math.min(attempt, 5)));
}

function preloadImages(view: AssignmentView) {
  const ui = getTaskUi(view.kind);
  for (const src of ui?.images(view.view) ?? []) {
    const image = new Image();
    image.src = src;
  }
}

/**
 * Server history plus the events this browser holds (unsent, or sent since the page loaded) of
 * the seqs the server does not have. Every stored event is kept, in the server's order: two tabs'
 * events of one seq (a take-over's race, lib/responses/writer.ts) are both part of the item.
 */
function mergedHistory(view: AssignmentView, queue: TrajectoryQueue): HistoryEvent[] {
  const stored = new Set(view.history.map((event) => event.seq));
  const local = new Map<number, HistoryEvent>();
  for (const event of queue.eventsOf(view.assignmentId)) if (!stored.has(event.seq)) local.set(event.seq, event);
  // a stable sort: within a seq the server's order stays
  return [...view.history, ...local.values()].sort((a, b) => a.seq - b.seq);
}

function SessionLoop({ study, initial }: { study: SessionStudy; initial: NextView }) {
  const router = useRouter();
  const queue = useTrajectoryQueue();
  const queueStatus = useQueueStatus();
  const initialItem = initial.status === "item" ? initial.assignment : null;
  const alreadySent = initialItem !== null && (queue.hasPendingSubmission(initialItem.assignmentId) || queue.isDone(initialItem.assignmentId));
  const [current, setCurrent] = useState<AssignmentView | null>(alreadySent ? null : initialItem);
  const [phase, setPhase] = useState<Phase>(
    alreadySent
      ? { name: "advancing" }
      : initial.status === "closed"
        ? { name: "closed" }
        : initial.status === "paused"
          ? { name: "paused" }
          : { name: "working" },
  );
  /** the server did not answer the last ask for the next item: what happened, and when the page asks again */
  const [stall, setStall] = useState<{ failure: NextFailure; attempt: number; retryAt: number } | null>(null);
  const wake = useRef<(() => void) | null>(null);
  const [practice, setPractice] = useState<PracticeStanding | null>(initial.status === "item" ? initial.practice : null);
  const [progress, setProgress] = useState<Progress>(initial.progress);
  const [done, setDone] = useState({ practice: initial.progress.practice.done, main: initial.progress.main.done });
  const prefetch = useRef<{ forId: string; promise: Promise<NextView | null> } | null>(null);
  /** the last submission the server refused, and why (shown until dismissed) */
  const [refused, setRefused] = useState<{ assignmentId: string; reason: RefusalReason } | null>(null);
  const noteRefusal = useCallback((error: unknown) => {
    if (error instanceof SubmissionRefused && error.reason) setRefused({ assignmentId: error.assignmentId, reason: error.reason });
    else console.error("submission refused", error);
  }, []);

  // every task UI's code now, while online: a prefetched item of another kind may show offline
  useEffect(() => {
    for (const ui of Object.values(taskUis)) void ui.preload().catch(() => undefined);
  }, []);

  const goDone = useCallback(() => router.push(`/s/${study.slug}/done`), [router, study.slug]);

  // prefetch the item after the one on screen
  useEffect(() => {
    if (!current) return;
    const exclude = [current.assignmentId, ...queue.status().pendingSubmissionIds.filter((id) => id !== current.assignmentId)];
    const promise = fetchNext(study.slug, exclude).then((next) => {
      if (next?.status === "item") preloadImages(next.assignment);
      if (next?.status === "item") setPractice(next.practice);
      if (next) setProgress(next.progress);
      return next;
    });
    prefetch.current = { forId: current.assignmentId, promise };
  }, [current, queue, study.slug]);

  /** Show the next item: the prefetched one when there is one, else ask once the outbox is empty. */
  const advance = useCallback(
    async (from: string | null) => {
      const prefetched = prefetch.current && prefetch.current.forId === from ? await prefetch.current.promise : null;
      if (
        prefetched?.status === "item" &&
        !queue.isDone(prefetched.assignment.assignmentId) &&
        !queue.hasPendingSubmission(prefetched.assignment.assignmentId)
      ) {
        setCurrent(prefetched.assignment);
        setPhase({ name: "working" });
        return;
      }
      setCurrent(null);
      setPhase({ name: "advancing" });
      for (let attempt = 0; ; attempt++) {
        // the server must know every submission before it can say what is next
        for (const id of queue.status().pendingSubmissionIds) await queue.waitFor(id).catch(() => undefined);
        const { next, failure } = await fetchNextResult(study.slug, []);
        const delay = nextRetryDelayMs(attempt, failure?.retryAfterMs);
        setStall(failure ? { failure, attempt: attempt + 1, retryAt: Date.now() + delay } : null);
        if (next) setProgress(next.progress);
        if (next?.status === "item" && !queue.isDone(next.assignment.assignmentId) && !queue.hasPendingSubmission(next.assignment.assignmentId)) {
          setCurrent(next.assignment);
          setPhase({ name: "working" });
          return;
        }
        if (next?.status === "item") setPractice(next.practice);
        if (next?.status === "done" || next?.status === "quota" || next?.status === "full") return goDone();
        if (next?.status === "closed") return setPhase({ name: "closed" });
        if (next?.status === "excluded" || next?.status === "timed_out" || next?.status === "returned") return router.push(`/s/${study.slug}/ended`);
        if (next?.status === "consent" || next?.status === "tutorial") return router.push(next.path);
        // paused: ask again at the backoff's pace (at most every 30 s) until the study reopens
        if (next?.status === "paused") setPhase({ name: "paused" });
        // "Try again now" (a stalled server) cuts the wait short
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          wake.current = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake.current = null;
      }
    },
    [goDone, queue, router, study.slug],
  );

  // an item submitted before a reload: wait for it, then go on; a paused study: wait for it to reopen
  useEffect(() => {
    if (alreadySent || initial.status === "paused") void advance(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount
  }, []);

  const onSubmit = useCallback(
    (input: ResponseCreateInput) => {
      const view = current;
      if (!view) return;
      const acked = queue.submit(input);
      const answer = input.answer;
      if (view.purpose === "PRACTICE") {
        setDone((d) => ({ ...d, practice: d.practice + 1 }));
        setPhase({ name: "checking" });
        acked.then(
          (ack) => {
            if (!ack.duplicate) setPractice((p) => (p ? { ...p, answered: p.answered + 1, correct: p.correct + (ack.feedback?.correct ? 1 : 0) } : p));
            setPhase({ name: "feedback", ack, answer });
          },
          (error: unknown) => {
            noteRefusal(error);
            void advance(view.assignmentId);
          },
        );
        return;
      }
      acked.catch(noteRefusal);
      setDone((d) => ({ ...d, main: d.main + 1 }));
      void advance(view.assignmentId);
    },
    [advance, current, noteRefusal, queue],
  );

  /** the session time ran out: the server says so (timed out), and the ended page explains */
  const recheckStanding = useCallback(() => {
    const exclude = [...(current ? [current.assignmentId] : []), ...queue.status().pendingSubmissionIds];
    void fetchNext(study.slug, [...new Set(exclude)]).then((next) => {
      if (next?.status === "excluded" || next?.status === "timed_out" || next?.status === "returned") router.push(`/s/${study.slug}/ended`);
    });
  }, [current, queue, router, study.slug]);

  const practiceTotal = Math.max(progress.practice.total, done.practice);
  const mainTotal = Math.max(progress.main.total, done.main + (current && current.purpose !== "PRACTICE" ? 1 : 0));
  const counter =
    current?.purpose === "PRACTICE" || (phase.name !== "working" && done.practice < practiceTotal)
      ? `Practice ${Math.min(done.practice + (phase.name === "working" ? 1 : 0), practiceTotal)} of ${practiceTotal}`
      : `Item ${Math.min(done.main + (current ? 1 : 0), Math.max(mainTotal, 1))} of ${mainTotal}`;

  const inPractice = current?.purpose === "PRACTICE" || (phase.name !== "working" && done.practice < practiceTotal);
  const status = (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className="inline-flex flex-col gap-0.5">
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums ${current?.purpose === "PRACTICE" ? "bg-blue-50 text-blue-700" : "bg-slate-100 text-slate-700"}`}
          data-testid="progress"
          title={study.title}
        >
          {counter}
        </span>
        <ProgressBar done={inPractice ? done.practice : done.main} total={inPractice ? practiceTotal : mainTotal} className="mx-1 h-1 w-auto" />
      </span>
      {phase.name === "working" && current && study.itemTimeLimitSeconds ? (
        <ItemTimer key={current.assignmentId} startedAt={current.startedAt} limitSeconds={study.itemTimeLimitSeconds} />
      ) : null}
      {study.sessionEndsAt ? <SessionTimer endsAt={study.sessionEndsAt} onExpired={recheckStanding} /> : null}
      <SyncStatus />
      {current ? <ShortcutsButton kind={current.kind} /> : null}
      <Link
        href={`/s/${study.slug}`}
        className="rounded-md px-1.5 py-0.5 text-xs font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
        title="Your work is saved: continue later, on any device"
      >
        Pause
      </Link>
    </div>
  );

  return (
    // from lg up the item fills the window and its panels scroll; below (phones, narrow windows) the
    // task is as tall as its content and the page scrolls
    <div className="flex min-h-[calc(100dvh-3.5rem-1px-1.5rem)] flex-col gap-2 lg:h-[calc(100dvh-3.5rem-1px-1.5rem)] lg:min-h-[500px]" aria-label={study.title}>
      {refused ? <RefusedNotice refused={refused} onDismiss={() => setRefused(null)} /> : null}
      {phase.name === "working" && current ? (
        <ItemWork
          key={current.assignmentId}
          view={current}
          study={study}
          onSubmit={onSubmit}
          onSubmittedElsewhere={() => void advance(current.assignmentId)}
          status={status}
        />
      ) : phase.name === "feedback" && current ? (
        <PracticeFeedback
          key={`feedback-${current.assignmentId}`}
          view={current}
          study={study}
          ack={phase.ack}
          answer={phase.answer}
          onContinue={() => void advance(current.assignmentId)}
          status={
            <>
              {status}
              {practice ? <PracticeStandingNote practice={practice} /> : null}
            </>
          }
        />
      ) : phase.name === "closed" ? (
        <Notice
          title="This study is closed"
          body="It does not take answers any more. Thank you for your work."
          action={
            <Link className={buttonClass("secondary")} href="/studies">
              Back to my studies
            </Link>
          }
        />
      ) : phase.name === "paused" ? (
        <Notice
          title="The study is paused"
          body="The research team has paused the study for a moment. Your work is saved; this page goes on by itself when the study reopens, or come back later."
          action={
            <Link className={buttonClass("secondary")} href={`/s/${study.slug}`}>
              Back to the study page
            </Link>
          }
        />
      ) : (
        <>
          {stall && phase.name === "advancing" ? (
            <StallNotice
              stall={stall}
              study={study}
              onRetry={() => {
                void queue.flush();
                wake.current?.();
              }}
            />
          ) : (
            <Notice
              title={phase.name === "checking" ? "Checking your answer…" : "Loading the next item…"}
              body={
                queueStatus.offline
                  ? queueStatus.retryInMs !== null && typeof navigator !== "undefined" && navigator.onLine
                    ? "The server is not answering at the moment. Your answer is saved on this device and is sent again automatically; this page continues by itself."
                    : "You are offline. Your answer is saved on this device and will be sent as soon as the connection is back; this page continues by itself."
                  : "One moment."
              }
              busy
              action={
                queueStatus.offline ? (
                  <button type="button" className={buttonClass("secondary")} onClick={() => void queue.flush()}>
                    Try again now
                  </button>
                ) : undefined
              }
            />
          )}
          <div className="rounded-lg border border-slate-200 bg-white px-3 py-2">{status}</div>
        </>
      )}
    </div>
  );
}

/** The next item could not be loaded: what happened, the automatic retry's countdown, and a button to try at once. */
function StallNotice({
  stall,
  study,
  onRetry,
}: {
  stall: { failure: NextFailure; attempt: number; retryAt: number };
  study: SessionStudy;
  onRetry: () => void;
}) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 500);
    return () => window.clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.ceil((stall.retryAt - now) / 1000));
  const { httpStatus } = stall.failure;
  const what =
    httpStatus === null
      ? "The server could not be reached (no connection, or it is restarting)."
      : httpStatus === 503 || httpStatus === 502 || httpStatus === 504
        ? `The server is overloaded right now (HTTP ${httpStatus}).`
        : `The server answered with an error (HTTP ${httpStatus}).`;
  return (
    <div
      className="grid flex-1 place-items-center rounded-lg border border-amber-200 bg-amber-50"
      role="status"
      data-testid="next-stalled"
      data-attempt={stall.attempt}
      data-http-status={httpStatus ?? "none"}
    >
      <div className="max-w-md px-6 text-center">
        <h2 className="text-lg font-semibold text-amber-950">The next item is taking longer than usual</h2>
        <p className="mt-1 text-sm text-amber-900">{what} Your answers so far are saved; nothing is lost.</p>
        <p className="mt-2 text-sm text-amber-900" aria-live="polite">
          {seconds > 0 ? `Trying again in ${seconds} s (attempt ${stall.attempt + 1}).` : "Trying again…"} The wait grows a little each time, up to 30 s.
        </p>
        <button type="button" className={buttonClass("primary", "md", "mt-4")} onClick={onRetry}>
          Try again now
        </button>
        {stall.attempt >= 2 ? (
          <p className="mt-3 text-xs text-amber-900">
            If this goes on, please <TeamContact contact={study.contact ?? null} studyTitle={study.title} />.
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** After a practice answer: right so far, and the pass mark that unlocks the real items. */
function PracticeStandingNote({ practice }: { practice: PracticeStanding }) {
  const { answered, correct, total, passMark } = practice;
  const share = answered > 0 ? correct / answered : 0;
  const needed = passMark === null ? null : Math.ceil(passMark * total - 1e-9);
  const passed = needed !== null && correct >= needed;
  return (
    <span className="text-xs text-slate-600" data-testid="practice-standing" data-passed={passed ? "true" : "false"}>
      Practice: {correct} of {answered} right{answered < total ? ` (${total - answered} to go)` : ""}
      {needed !== null ? (
        passed ? (
          <span className="text-emerald-700"> · pass mark reached ({Math.round((passMark ?? 0) * 100)}%)</span>
        ) : (
          <span className="text-amber-700">
            {" "}
            · the real items need {needed} of {total} right ({Math.round((passMark ?? 0) * 100)}%)
            {answered === total && share < (passMark ?? 0) ? ": not reached" : ""}
          </span>
        )
      ) : null}
    </span>
  );
}

function Notice({ title, body, action, busy }: { title: string; body: React.ReactNode; action?: React.ReactNode; busy?: boolean }) {
  return (
    <div className="grid flex-1 place-items-center rounded-lg border border-slate-200 bg-white" role="status" aria-busy={busy ? "true" : undefined}>
      <div className="max-w-md px-6 text-center">
        {busy ? <div aria-hidden className="mx-auto mb-3 h-6 w-6 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" /> : null}
        <h2 className="text-lg font-semibold">{title}</h2>
        <p className="mt-1 text-sm text-slate-600">{body}</p>
        {action ? <div className="mt-4">{action}</div> : null}
      </div>
    </div>
  );
}

/** A submission the server refused: why, and what the person can do. */
function RefusedNotice({ refused, onDismiss }: { refused: { assignmentId: string; reason: RefusalReason }; onDismiss: () => void }) {
  const queue = useTrajectoryQueue();
  const [busy, setBusy] = useState(false);
  const takeOver = async () => {
    setBusy(true);
    const result = await queue.claim(refused.assignmentId, { takeOver: true });
    // the reloaded page shows the first open item, the refused one, with what the other tab stored
    if (result.kind === "mine") window.location.reload();
    else setBusy(false);
  };
  return (
    <div
      role="alert"
      data-testid="submission-refused"
      data-reason={refused.reason}
      data-assignment={refused.assignmentId}
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900"
    >
      <span className="font-semibold">Your last answer was not stored.</span>
      <span className="min-w-0">
        {refused.reason === "writer"
          ? "That item is open in another tab or on another device, which is working on it. Finish it there, or take it over here."
          : "That item had been submitted already, in another tab or on another device; a second answer is not taken."}
      </span>
      <span className="ml-auto flex gap-2">
        {refused.reason === "writer" ? (
          <button type="button" className={buttonClass("primary", "sm")} disabled={busy} onClick={() => void takeOver()}>
            Take over here
          </button>
        ) : null}
        <button type="button" className={buttonClass("secondary", "sm")} onClick={onDismiss}>
          Dismiss
        </button>
      </span>
    </div>
  );
}

/** Whether this tab writes the item (lib/responses/writer.ts): not yet known, yes, another tab or device does, or it was submitted. */
type Ownership = "claiming" | "mine" | "other" | "submitted";

/**
 * Claims the item for this tab when it is shown. A tab of this browser that was closed gives it up
 * at once; one still open, or another device, makes the page ask. Later, a 409 on this tab's
 * events (another tab took the item over) turns it to "other".
 */
function useOwnership(assignmentId: string): { ownership: Ownership; takeOver: () => Promise<void> } {
  const queue = useTrajectoryQueue();
  const [ownership, setOwnership] = useState<Ownership>("claiming");
  useEffect(() => {
    let cancelled = false;
    const apply = (result: Awaited<ReturnType<TrajectoryQueue["claim"]>>) => {
      if (cancelled) return;
      // unknown (offline, the server down): the page goes on; its events claim the item when they arrive
      setOwnership(result.kind === "other" ? "other" : result.kind === "submitted" ? "submitted" : "mine");
    };
    void (async () => {
      apply(await queue.claim(assignmentId, { takeOverFrom: (writer) => isGoneLocalTab(window.localStorage, writer, Date.now()) }));
    })();
    const unsubscribe = queue.onLost((id) => {
      if (id === assignmentId && !cancelled) setOwnership("other");
    });
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, [assignmentId, queue]);
  const takeOver = useCallback(async () => {
    const result = await queue.claim(assignmentId, { takeOver: true });
    // a fresh page shows the item with everything the other tab stored
    if (result.kind === "mine") window.location.reload();
    else if (result.kind === "submitted") setOwnership("submitted");
  }, [assignmentId, queue]);
  return { ownership, takeOver };
}

/** Another tab or device writes this item: said so, with the button to take it over here. */
function OtherWriterNotice({ onTakeOver, status }: { onTakeOver: () => Promise<void>; status: React.ReactNode }) {
  const [busy, setBusy] = useState(false);
  return (
    <>
      <div className="grid flex-1 place-items-center rounded-lg border border-amber-200 bg-amber-50" role="alert" data-testid="other-writer">
        <div className="max-w-md px-6 text-center">
          <h2 className="text-lg font-semibold text-amber-950">This item is open in another tab</h2>
          <p className="mt-1 text-sm text-amber-900">
            It is being worked on in another tab or on another device; only one place takes answers at a time, so that nothing is recorded twice. Go on there,
            or take it over here: the other place then stops taking answers.
          </p>
          <button
            type="button"
            className={buttonClass("primary", "md", "mt-4")}
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void onTakeOver().finally(() => setBusy(false));
            }}
          >
            Take over here
          </button>
        </div>
      </div>
      <div className="rounded-lg border border-slate-200 bg-white px-3 py-2">{status}</div>
    </>
  );
}

/** The item was submitted elsewhere (another tab or device): said so, and on to the next. */
function SubmittedElsewhereNotice({ onContinue, status }: { onContinue: () => void; status: React.ReactNode }) {
  return (
    <>
      <Notice
        title="This item was submitted already"
        body="It was answered in another tab or on another device; a second answer is not taken."
        action={
          <button type="button" data-testid="submitted-elsewhere" className={buttonClass("primary")} onClick={onContinue}>
            Continue
          </button>
        }
      />
      <div className="rounded-lg border border-slate-200 bg-white px-3 py-2">{status}</div>
    </>
  );
}

/** One item: whether this tab writes it, then its store (resumed from the stored and queued events), the task UI and the submit bar. */
function ItemWork(props: {
  view: AssignmentView;
  study: SessionStudy;
  onSubmit: (input: ResponseCreateInput) => void;
  onSubmittedElsewhere: () => void;
  status: React.ReactNode;
}) {
  const { ownership, takeOver } = useOwnership(props.view.assignmentId);
  if (ownership === "other") return <OtherWriterNotice onTakeOver={takeOver} status={props.status} />;
  if (ownership === "submitted") return <SubmittedElsewhereNotice onContinue={props.onSubmittedElsewhere} status={props.status} />;
  return <ItemTask view={props.view} study={props.study} onSubmit={props.onSubmit} status={props.status} />;
}

function ItemTask({
  view,
  study,
  onSubmit,
  status,
}: {
  view: AssignmentView;
  study: SessionStudy;
  onSubmit: (input: ResponseCreateInput) => void;
  status: React.ReactNode;
}) {
  const queue = useTrajectoryQueue();
  const ui = getTaskUi(view.kind);
  const [init] = useState(() => {
    const cursor = queue.cursor(view.assignmentId);
    return {
      assignmentId: view.assignmentId,
      kind: view.kind,
      ...(ui ? storeInitOf(ui, view.view) : { initialAnswer: null, answerOf: () => null }),
      confidenceScale: study.confidenceScale,
      idleCapMs: idleCapMs(study.idleCapSeconds),
      history: mergedHistory(view, queue),
      nextSeq: cursor?.nextSeq,
      tally: cursor?.tally,
      reopen: view.reopened,
      sink: queue.enqueue.bind(queue),
      onSubmit,
    };
  });
  if (!ui)
    return (
      <Notice
        title="This kind of task cannot be shown"
        body={
          <>
            No interface is registered for &quot;{view.kind}&quot;. Please <TeamContact contact={study.contact ?? null} studyTitle={study.title} />.
          </>
        }
      />
    );
  return (
    <AnnotationStoreProvider init={init}>
      <ItemEffects />
      {view.reopened ? (
        <div role="status" data-testid="reopened-notice" className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <span className="font-semibold">Submit again, please.</span> {view.reopened.reason}
        </div>
      ) : null}
      <div className="min-h-0 flex-1" data-testid="task" data-kind={view.kind} data-assignment={view.assignmentId}>
        <TaskView ui={ui} view={view.view} />
      </div>
      <SubmitBar status={status} ui={ui} view={view.view} />
      <IdleOverlay />
    </AnnotationStoreProvider>
  );
}

/** item_shown on mount, focus loss, and the idle check; all recorded by store actions. */
function ItemEffects() {
  const api = useAnnotationStoreApi();
  useEffect(() => {
    const store = api.getState();
    store.show({ width: window.innerWidth, height: window.innerHeight });
    if (api.getState().hidden) api.getState().pageVisible();
    const onVisibility = () => (document.visibilityState === "hidden" ? api.getState().pageHidden() : api.getState().pageVisible());
    document.addEventListener("visibilitychange", onVisibility);
    const timer = window.setInterval(() => {
      const state = api.getState();
      if (state.hidden || state.idle || state.submitted || document.visibilityState === "hidden") return;
      const since = state.sinceLastEvent();
      if (since !== null && since >= state.idleCapMs) state.idleShown(since);
    }, 1000);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.clearInterval(timer);
      // leaving the item (Pause, another page): the time away is not working time
      api.getState().pageHidden();
    };
  }, [api]);
  return null;
}

function SubmitBar({ status, ui, view }: { status: React.ReactNode; ui: TaskUi; view: unknown }) {
  const submit = useAnnotationStore((s) => s.submit);
  const { ready, missing } = useSubmitReadiness(ui, view);
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-slate-200 bg-white px-3 py-1.5 shadow-sm">
      {status}
      {ui.confidenceInTask ? (
        // the task shows the confidence itself (ESI's belief panel)
        <span className="ml-auto" />
      ) : (
        <>
          <span className="ml-auto hidden text-sm font-medium text-slate-700 xl:inline">Your confidence:</span>
          <span className="ml-auto xl:ml-0">
            <ConfidenceInput />
          </span>
        </>
      )}
      <span className="w-32 text-right text-xs leading-tight text-slate-500 max-lg:ml-auto" aria-live="polite">
        {missing}
      </span>
      <button type="button" onClick={() => submit()} disabled={!ready} className={buttonClass("primary", "md", "min-w-28 max-lg:h-11")}>
        Submit
      </button>
    </div>
  );
}

/**
 * After a practice item: the right answer, laid out in the task itself (read-only), as the kind
 * shows it (TaskUi.feedback), or the key's answer with a note where the kind places each answer.
 */
function PracticeFeedback({
  view,
  study,
  ack,
  answer,
  onContinue,
  status,
}: {
  view: AssignmentView;
  study: SessionStudy;
  ack: ResponseAck;
  answer: unknown;
  onContinue: () => void;
  status: React.ReactNode;
}) {
  const ui = getTaskUi(view.kind);
  const correct = ack.feedback?.correct ?? false;
  const input: PracticeFeedbackInput = { answer, key: ack.feedback?.answer ?? null, correct, view: view.view };
  const feedback = ui ? (ui.feedback ?? ((given: PracticeFeedbackInput) => placedFeedback(ui, given)))(input) : null;
  const continueButton = useRef<HTMLButtonElement>(null);
  useEffect(() => continueButton.current?.focus(), []);
  if (!ui || !feedback) return null;
  return (
    <AnnotationStoreProvider
      init={{
        assignmentId: view.assignmentId,
        kind: view.kind,
        ...storeInitOf(ui, view.view),
        initialAnswer: ui.displayAnswer ? ui.displayAnswer(feedback.shown, view.view) : feedback.shown,
        confidenceScale: study.confidenceScale,
        idleCapMs: idleCapMs(study.idleCapSeconds),
        readOnly: true,
      }}
    >
      <div
        role="status"
        data-testid="practice-feedback"
        data-correct={correct ? "true" : "false"}
        className={`flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border px-3 py-2 text-sm ${correct ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-amber-200 bg-amber-50 text-amber-900"}`}
      >
        <span className="font-semibold">{correct ? "Correct." : "Not quite."}</span>
        <span className="min-w-0 lg:truncate">{feedback.message}</span>
        <button ref={continueButton} type="button" onClick={onContinue} className={buttonClass("primary", "sm", "ml-auto")}>
          Continue
        </button>
      </div>
      <div className="min-h-0 flex-1" data-testid="task" data-kind={view.kind} data-assignment={view.assignmentId} data-readonly="true">
        <TaskView ui={ui} view={view.view} slotNotes={feedback.notes} />
      </div>
      <div className="rounded-lg border border-slate-200 bg-white px-3 py-2">{status}</div>
    </AnnotationStoreProvider>
  );
}

/** The practice feedback of a kind without its own: the key's answer shown (the person's when right), marked where the kind places answers (TaskUi.answerPlace). */
function placedFeedback(ui: TaskUi, { answer, key, correct }: PracticeFeedbackInput): PracticeFeedbackView {
  const keyAnswer = key ?? null;
  const place = (given: unknown) => ui.answerPlace?.(given) ?? null;
  const notes: Array<SlotNote | null> = [];
  const keyIndex = place(keyAnswer ?? answer);
  const ownIndex = place(answer);
  if (ownIndex !== null && ownIndex !== keyIndex) notes[ownIndex] = { tone: "bad", text: "✗ your answer" };
  if (keyIndex !== null) notes[keyIndex] = { tone: "good", text: correct ? "✓ your answer" : "✓ right answer" };
  const describe = ui.describeAnswer ?? ((a: unknown) => JSON.stringify(a));
  const message = correct
    ? ownIndex !== null
      ? `Your answer (${describe(answer)}) is right.`
      : "Your answer is right (close enough to count)."
    : ownIndex !== null
      ? `The right answer is ${describe(keyAnswer)}; you had ${describe(answer)}.`
      : "The right answer is shown below.";
  return { shown: correct || keyAnswer === null ? answer : keyAnswer, notes, message };
}
