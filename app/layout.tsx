import type { Metadata } from "next";
import { connection } from "next/server";
import { ZodJitless } from "@/components/security/zod-jitless";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Yardstick", template: "%s · Yardstick" },
  description: "Human baselines for embodied world-model benchmarks",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // every page renders per request, so Next.js can put the request's CSP nonce (proxy.ts) on its scripts
  await connection();
  return (
    <html lang="en">
      <body className="min-h-full">
        <ZodJitless />
        {children}
      </body>
    </html>
  );
}
