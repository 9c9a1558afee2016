"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";

/** How often a page waiting on the job worker asks again, and for how long at most. */
const POLL_MS = 3_000;
const POLL_FOR_MS = 15 * 60_000;

/** Refreshes the page (the server component reads again) every few seconds while `waiting`, for at most a quarter of an hour. */
export function useRefreshWhile(waiting: boolean): void {
  const router = useRouter();
  useEffect(() => {
    if (!waiting) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > POLL_FOR_MS) clearInterval(timer);
      else router.refresh();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, router]);
}
