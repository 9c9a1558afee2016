"use client";

import Link from "next/link";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import ReactMarkdown from "react-markdown";
import type { ReviewItemView, ReviewNext, ReviewProgress } from "@/lib/review/types";
import { AnnotatorView } from "@/components/review/annotator-view";
import { KeyView } from "@/components/review/key-view";
import { ItemMeta } from "@/components/review/item-meta";
import { ScaledPreview } from "@/components/review/scaled-preview";
import { buttonClass } from "@/components/ui/button";
import { callApi } from "@/lib/client/api";

/**
 * The reviewer's page (docs/review.md, "Reviewing"): the item as the annotator sees it, beside it
 * the answer key and the item's metadata, and under both one pass / fail verdict per axis.
 *
 * Keyboard: 1–9 choose an axis; P passes it and moves on to the next axis without a verdict;
 * F fails it and puts the cursor in its reason field (a fail needs a reason), where Enter moves
 * on (or submits when every axis has its verdict) and Escape leaves the field; Enter submits.
 * The next item appears at once: the server answers a submission with it.
 */

type Verdicts = Record<string, boolean | undefined>;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** Whether the window is lg (1024 px) or wider: the preview then fits the box beside the key, else the width of the page. */
function useWide(): boolean {
  const [wide, setWide] = useState(true);
  useEffect(() => {
    const query = window.matchMedia("(min-width: 1024px)");
    const update = () => setWide(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return wide;
}

export function ReviewWorkspace({ title, instructions, initial }: { title: string; instructions: string; initial: ReviewNext }) {
  const [current, setCurrent] = useState<ReviewNext>(initial);
  const [saved, setSaved] = useState<string | null>(null);

  if (current.status !== "item") {
    return (
      <div className="mx-auto max-w-xl py-10" data-testid="review-finished">
        <div className="rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
          <h1 className="text-lg font-semibold text-slate-900">{current.status === "closed" ? "This review is closed" : "Nothing left to review"}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {current.status === "closed"
              ? "The research team closed this review study; it takes no more verdicts."
              : "Every item has its reviewers, or you have reviewed all the items you may review."}{" "}
            You reviewed {current.progress.done} item{current.progress.done === 1 ? "" : "s"} in {title}.
          </p>
          {saved ? <p className="mt-2 text-xs text-emerald-700">{saved}</p> : null}
          <Link href="/review" className={buttonClass("primary", "md", "mt-4")}>
            Back to my reviews
          </Link>
        </div>
      </div>
    );
  }
  return (
    <ReviewItemScreen
      key={current.view.assignmentId}
      title={title}
      instructions={instructions}
      view={current.view}
      progress={current.progress}
      saved={saved}
      onSubmitted={(next, message) => {
        setSaved(message);
        setCurrent(next);
      }}
    />
  );
}

function ReviewItemScreen({
  title,
  instructions,
  view,
  progress,
  saved,
  onSubmitted,
}: {
  title: string;
  instructions: string;
  view: ReviewItemView;
  progress: ReviewProgress;
  saved: string | null;
  onSubmitted: (next: ReviewNext, message: string) => void;
}) {
  const axes = view.axes;
  const [verdicts, setVerdicts] = useState<Verdicts>({});
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [active, setActive] = useState(0);
  const wide = useWide();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reasonRefs = useRef<Array<HTMLInputElement | null>>([]);
  // the latest state for the window key handler, which is registered once
  const state = useRef({ verdicts, reasons, active, pending });
  useLayoutEffect(() => {
    state.current = { verdicts, reasons, active, pending };
  });

  const choose = useCallback((index: number) => {
    state.current.active = index;
    setActive(index);
  }, []);

  const missingAt = useCallback(
    (v: Verdicts, r: Record<string, string>) => axes.findIndex((axis) => v[axis.key] === undefined || (v[axis.key] === false && !(r[axis.key] ?? "").trim())),
    [axes],
  );

  const submit = useCallback(async () => {
    const { verdicts: v, reasons: r, pending: busy } = state.current;
    if (busy) return;
    const missing = missingAt(v, r);
    if (missing >= 0) {
      state.current.active = missing;
      setActive(missing);
      const axis = axes[missing];
      setError(v[axis.key] === false ? `Say why “${axis.label}” fails, then press Enter.` : `Give “${axis.label}” a verdict first: P pass, F fail.`);
      if (v[axis.key] === false) reasonRefs.current[missing]?.focus();
      return;
    }
    state.current.pending = true;
    setPending(true);
    setError(null);
    const result = await callApi<{ next: ReviewNext }>(`/api/review/assignments/${view.assignmentId}/verdicts`, {
      json: { verdicts: axes.map((axis) => ({ axis: axis.key, pass: v[axis.key] === true, reason: (r[axis.key] ?? "").trim() || undefined })) },
    });
    if (!result.ok) {
      state.current.pending = false;
      setPending(false);
      if (result.unreachable) setError("No connection: your verdicts are not saved yet. Press Enter to try again.");
      else
        setError(
          result.issues
            ? result.issues.map((issue) => issue.message).join("; ")
            : (result.error ?? `Could not save (HTTP ${result.status}); press Enter to try again.`),
        );
      return;
    }
    onSubmitted(result.data.next, `Saved your review of ${view.item.externalId}.`);
  }, [axes, missingAt, onSubmitted, view.assignmentId, view.item.externalId]);

  const decide = useCallback(
    (index: number, pass: boolean) => {
      const axis = axes[index];
      if (!axis || state.current.pending) return;
      const nextVerdicts = { ...state.current.verdicts, [axis.key]: pass };
      // written through at once: a second key press may come before React renders
      state.current.verdicts = nextVerdicts;
      setVerdicts(nextVerdicts);
      setError(null);
      if (pass) {
        // on to the next axis without a verdict (after this one, then from the start)
        const order = [...axes.keys()].slice(index + 1).concat([...axes.keys()].slice(0, index));
        const next = order.find((i) => nextVerdicts[axes[i].key] === undefined);
        if (next !== undefined) {
          state.current.active = next;
          setActive(next);
        }
      } else {
        state.current.active = index;
        setActive(index);
        // after React renders the field as required
        window.setTimeout(() => reasonRefs.current[index]?.focus(), 0);
      }
    },
    [axes],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      if (document.querySelector('[role="dialog"]')) return;
      const key = event.key;
      if (/^[1-9]$/.test(key) && Number(key) <= axes.length) {
        event.preventDefault();
        choose(Number(key) - 1);
      } else if (key === "p" || key === "P") {
        event.preventDefault();
        decide(state.current.active, true);
      } else if (key === "f" || key === "F") {
        event.preventDefault();
        decide(state.current.active, false);
      } else if (key === "Enter") {
        // a focused button or link handles its own Enter
        if (event.target instanceof HTMLElement && event.target.closest("button, a, summary")) return;
        event.preventDefault();
        void submit();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [axes.length, choose, decide, submit]);

  const complete = missingAt(verdicts, reasons) < 0;
  const tags = Object.entries(view.item.tags);

  return (
    // from lg on the item fills the window (preview beside the key, verdicts under them); narrower, the parts stack and the page scrolls
    <div
      className="flex flex-col gap-2 lg:h-[calc(100dvh-3.5rem-1.5rem)] lg:min-h-[600px]"
      data-testid="review-item"
      data-assignment={view.assignmentId}
      data-item={view.item.externalId}
    >
      <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-sm lg:flex-nowrap">
        <Link href="/review" className="shrink-0 text-slate-500 hover:text-slate-800">
          ← Review
        </Link>
        <span className="max-w-[14rem] shrink-0 truncate font-semibold text-slate-900" title={title}>
          {title}
        </span>
        <div
          className="flex min-w-0 flex-1 items-center gap-2 overflow-hidden whitespace-nowrap max-lg:order-last max-lg:basis-full [mask-image:linear-gradient(to_right,#000_88%,transparent)]"
          aria-label="The item"
        >
          <span className="max-w-[16rem] shrink-0 truncate font-mono text-xs text-slate-700" title={view.item.externalId}>
            {view.item.externalId}
          </span>
          <span className="shrink-0 rounded-full bg-violet-50 px-2 py-0.5 text-xs font-medium text-violet-700">{view.item.kindTitle ?? view.item.kind}</span>
          {view.item.practice ? <span className="shrink-0 rounded-full bg-blue-50 px-2 py-0.5 text-xs font-medium text-blue-700">practice</span> : null}
          {tags.map(([key, value]) => (
            <span key={key} className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
              {key}: {String(value)}
            </span>
          ))}
        </div>
        <span className="flex shrink-0 items-center gap-3">
          <span className="text-xs tabular-nums text-slate-600" data-testid="review-progress">
            {progress.done} reviewed · {progress.available} to go
          </span>
          <details className="relative">
            <summary className="cursor-pointer list-none rounded-md border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50">
              Guide
            </summary>
            <div className="absolute right-0 z-30 mt-1 w-[28rem] max-w-[90vw] space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-lg">
              {instructions.trim() ? (
                <div className="space-y-2 text-slate-700 [&_ul]:list-disc [&_ul]:pl-5">
                  <ReactMarkdown>{instructions}</ReactMarkdown>
                </div>
              ) : null}
              <dl className="space-y-1">
                {axes.map((axis, i) => (
                  <div key={axis.key}>
                    <dt className="font-medium text-slate-900">
                      {i + 1}. {axis.label}
                    </dt>
                    <dd className="text-slate-600">{axis.description || "No description."}</dd>
                  </div>
                ))}
              </dl>
              <p className="text-xs text-slate-500">
                Judge each axis on its own. A fail needs a reason. Other reviewers’ verdicts are not shown to you. The key and the metadata are on the right;
                “Full size” shows the item as large as annotators see it.
              </p>
            </div>
          </details>
        </span>
      </div>

      <div className="grid min-h-0 flex-1 gap-3 lg:grid-cols-[minmax(0,1fr)_380px]">
        <ScaledPreview
          fit={wide ? "both" : "width"}
          label="As the annotator sees it"
          full={<AnnotatorView kind={view.item.kind} view={view.publicView} />}
          note={
            saved ? (
              <span className="text-xs text-emerald-700" role="status" title={saved}>
                ✓ {saved}
              </span>
            ) : null
          }
        >
          <AnnotatorView kind={view.item.kind} view={view.publicView} />
        </ScaledPreview>
        <aside className="flex min-h-0 flex-col overflow-hidden rounded-lg border border-amber-300 bg-amber-50/40 shadow-sm" aria-label="The answer key">
          <h2 className="flex items-center justify-between gap-2 border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-sm font-semibold text-amber-900">
            Answer key
            <span className="text-[11px] font-normal text-amber-800">annotators never see this</span>
          </h2>
          <div className="min-h-0 flex-1 space-y-3 overflow-y-auto p-2" data-testid="answer-key">
            <KeyView kind={view.item.kind} view={view.reviewView} />
            <section className="rounded-md border border-slate-200 bg-white p-2">
              <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Metadata</h3>
              <ItemMeta item={view.item} />
            </section>
          </div>
        </aside>
      </div>

      <form
        className="rounded-lg border border-slate-200 bg-white p-2 shadow-sm"
        aria-label="Verdicts"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="grid gap-2 lg:[grid-template-columns:repeat(var(--axes),minmax(0,1fr))_auto]" style={{ "--axes": axes.length } as React.CSSProperties}>
          {axes.map((axis, i) => {
            const verdict = verdicts[axis.key];
            const isActive = i === active;
            return (
              <fieldset
                key={axis.key}
                className={`min-w-0 rounded-md border p-1.5 ${isActive ? "border-brand-500 ring-2 ring-brand-100" : "border-slate-200"} ${verdict === true ? "bg-emerald-50/60" : verdict === false ? "bg-red-50/60" : ""}`}
                data-axis={axis.key}
                data-verdict={verdict === undefined ? "" : verdict ? "pass" : "fail"}
                onClick={() => choose(i)}
              >
                <legend className="sr-only">{axis.label}</legend>
                <div className="flex min-w-0 items-center gap-1.5">
                  <kbd className="grid h-5 w-5 shrink-0 place-items-center rounded border border-slate-300 bg-slate-50 text-[11px] font-semibold text-slate-600">
                    {i + 1}
                  </kbd>
                  <span className="shrink-0 text-sm font-semibold text-slate-900">{axis.label}</span>
                  <span className="truncate text-xs text-slate-500" title={axis.description}>
                    {axis.description}
                  </span>
                </div>
                <div className="mt-1 flex items-center gap-1.5">
                  <button
                    type="button"
                    aria-pressed={verdict === true}
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => decide(i, true)}
                    className={`h-7 shrink-0 rounded-md border px-2 text-xs font-semibold ${verdict === true ? "border-emerald-600 bg-emerald-600 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-emerald-50"}`}
                  >
                    Pass{isActive ? <kbd className="ml-1 rounded bg-black/10 px-1 font-mono text-[10px]">P</kbd> : null}
                  </button>
                  <button
                    type="button"
                    aria-pressed={verdict === false}
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => decide(i, false)}
                    className={`h-7 shrink-0 rounded-md border px-2 text-xs font-semibold ${verdict === false ? "border-red-600 bg-red-600 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-red-50"}`}
                  >
                    Fail{isActive ? <kbd className="ml-1 rounded bg-black/10 px-1 font-mono text-[10px]">F</kbd> : null}
                  </button>
                  <input
                    ref={(element) => {
                      reasonRefs.current[i] = element;
                    }}
                    aria-label={`Reason for ${axis.label}`}
                    value={reasons[axis.key] ?? ""}
                    required={verdict === false}
                    maxLength={2000}
                    onFocus={() => choose(i)}
                    onChange={(event) => {
                      const nextReasons = { ...state.current.reasons, [axis.key]: event.target.value };
                      state.current.reasons = nextReasons;
                      setReasons(nextReasons);
                    }}
                    onKeyDown={(event) => {
                      if (event.key === "Escape") {
                        event.preventDefault();
                        event.currentTarget.blur();
                      } else if (event.key === "Enter") {
                        event.preventDefault();
                        event.stopPropagation();
                        const nextReasons = { ...state.current.reasons, [axis.key]: event.currentTarget.value };
                        state.current.reasons = nextReasons;
                        const missing = missingAt(state.current.verdicts, nextReasons);
                        event.currentTarget.blur();
                        if (missing < 0) void submit();
                        else choose(missing);
                      }
                    }}
                    placeholder={verdict === false ? "Why does it fail? (required)" : "Reason (optional)"}
                    className={`h-7 min-w-0 flex-1 rounded-md border px-2 text-xs outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100 ${verdict === false && !(reasons[axis.key] ?? "").trim() ? "border-red-400 bg-white" : "border-slate-300 bg-white"}`}
                  />
                </div>
              </fieldset>
            );
          })}
          <div className="flex flex-col items-stretch justify-center gap-1 sm:items-end">
            <button type="submit" disabled={pending} className={buttonClass(complete ? "primary" : "secondary", "md", "min-w-32")}>
              {pending ? "Saving…" : "Submit"}
              <kbd className="rounded bg-black/10 px-1 font-mono text-[10px]">Enter</kbd>
            </button>
            <span className="text-[11px] text-slate-500">
              <kbd className="font-mono">1</kbd>–<kbd className="font-mono">{axes.length}</kbd> axis · <kbd className="font-mono">P</kbd> pass ·{" "}
              <kbd className="font-mono">F</kbd> fail
            </span>
          </div>
        </div>
        {error ? (
          <p className="mt-1 text-xs font-medium text-red-700" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </div>
  );
}
