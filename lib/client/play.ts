"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/**
 * The browser side of an interactive item (lib/annotate/play.ts): loads the episode, sends one action at a
 * time and keeps the last view. A step that fails on the network or with a 5xx is retried with
 * the same seq until the server answers (the server applies a seq once), so a flaky connection
 * never applies an action twice or loses one; a 503 (a remote simulator down) is retried a few
 * times and then shown, and the next `act` tries the same seq again.
 */

export interface PlayStepRecord {
  seq: number;
  action: unknown;
  valid: boolean;
  message: string | null;
}

export interface PlayAck {
  seq: number;
  view: unknown;
  valid: boolean;
  message: string | null;
  duplicate: boolean;
}

export interface PlayHandle<View> {
  status: "loading" | "ready" | "error";
  /** the latest acknowledged seq (0: the start) */
  seq: number;
  view: View | null;
  steps: PlayStepRecord[];
  /** an action is on its way */
  pending: boolean;
  /** why the last load or step failed (shown to the annotator), null when it did not */
  error: string | null;
  /** sends one action; resolves with the server's answer, or null when it failed (see `error`) */
  act: (action: unknown) => Promise<PlayAck | null>;
  /** loads the episode again (after an error) */
  reload: () => void;
}

const UNAVAILABLE_TRIES = 3;

export class PlayHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: { expectedSeq?: number },
  ) {
    super(message);
  }
}

async function requestJson(url: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, { ...init, headers: { "content-type": "application/json", ...init?.headers }, cache: "no-store" });
  const body = (await response.json().catch(() => null)) as { error?: string; details?: { expectedSeq?: number } } | null;
  if (!response.ok) throw new PlayHttpError(response.status, body?.error ?? `HTTP ${response.status}`, body?.details);
  return body;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Backoff between retries: 0.5 s, 1 s, 2 s, ... up to 8 s. */
export function playRetryDelayMs(attempt: number): number {
  return Math.min(8000, 500 * 2 ** attempt);
}

/** Network failures and 5xx other than 503 are retried without end; 503 a few times; 4xx never. */
export function shouldRetryPlay(error: unknown, attempt: number): boolean {
  if (!(error instanceof PlayHttpError)) return true;
  if (error.status === 503) return attempt + 1 < UNAVAILABLE_TRIES;
  return error.status >= 500;
}

export function usePlay<View = unknown>(
  assignmentId: string,
  options: { enabled?: boolean; onStep?: (ack: PlayAck, action: unknown) => void } = {},
): PlayHandle<View> {
  const enabled = options.enabled ?? true;
  const [state, setState] = useState<{ status: PlayHandle<View>["status"]; seq: number; view: View | null; steps: PlayStepRecord[]; error: string | null }>({
    status: "loading",
    seq: 0,
    view: null,
    steps: [],
    error: null,
  });
  const [pending, setPending] = useState(false);
  const [loadCount, setLoadCount] = useState(0);
  const seqRef = useRef(0);
  const busyRef = useRef(false);
  const onStepRef = useRef(options.onStep);
  useEffect(() => {
    onStepRef.current = options.onStep;
  });
  const url = `/api/annotate/assignments/${encodeURIComponent(assignmentId)}/play`;

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    (async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          const loaded = (await requestJson(url)) as { seq: number; view: View; steps: PlayStepRecord[] };
          if (cancelled) return;
          seqRef.current = loaded.seq;
          setState({ status: "ready", seq: loaded.seq, view: loaded.view, steps: loaded.steps, error: null });
          return;
        } catch (error) {
          if (cancelled) return;
          if (!shouldRetryPlay(error, attempt)) {
            setState((previous) => ({ ...previous, status: "error", error: error instanceof Error ? error.message : String(error) }));
            return;
          }
          await sleep(playRetryDelayMs(attempt));
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [url, enabled, loadCount]);

  const act = useCallback(
    async (action: unknown): Promise<PlayAck | null> => {
      if (busyRef.current) return null;
      busyRef.current = true;
      setPending(true);
      const seq = seqRef.current + 1;
      try {
        for (let attempt = 0; ; attempt++) {
          try {
            const ack = (await requestJson(url, { method: "POST", body: JSON.stringify({ seq, action }) })) as PlayAck;
            seqRef.current = ack.seq;
            setState((previous) => ({
              ...previous,
              seq: ack.seq,
              view: ack.view as View,
              steps: [...previous.steps.filter((step) => step.seq < ack.seq), { seq: ack.seq, action, valid: ack.valid, message: ack.message }],
              error: null,
            }));
            onStepRef.current?.(ack, action);
            return ack;
          } catch (error) {
            // another tab moved the episode on: load where it is now
            if (error instanceof PlayHttpError && error.status === 409 && error.details?.expectedSeq !== undefined) {
              setState((previous) => ({ ...previous, error: "This item moved on in another tab; reloaded." }));
              setLoadCount((count) => count + 1);
              return null;
            }
            if (!shouldRetryPlay(error, attempt)) {
              setState((previous) => ({ ...previous, error: error instanceof Error ? error.message : String(error) }));
              return null;
            }
            setState((previous) => ({ ...previous, error: attempt > 0 ? "Reconnecting…" : null }));
            await sleep(playRetryDelayMs(attempt));
          }
        }
      } finally {
        busyRef.current = false;
        setPending(false);
      }
    },
    [url],
  );

  const reload = useCallback(() => setLoadCount((count) => count + 1), []);
  return { ...state, pending, act, reload };
}
