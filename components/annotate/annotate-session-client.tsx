"use client";

import dynamic from "next/dynamic";
import type { NextView } from "@/lib/annotate/next";
import type { SessionStudy } from "@/components/annotate/annotate-session";

// browser-only (localStorage outbox, drag and drop backends): rendered on the client
const AnnotateSession = dynamic(() => import("@/components/annotate/annotate-session"), {
  ssr: false,
  loading: () => <div role="status" aria-label="Loading" className="h-[calc(100dvh-5rem)] animate-pulse rounded-lg bg-slate-200" />,
});

export function AnnotateSessionClient(props: { study: SessionStudy; initial: NextView }) {
  return <AnnotateSession {...props} />;
}
