import Link from "next/link";

export default function Forbidden() {
  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <p className="text-sm font-semibold text-red-600">403</p>
      <h1 className="mt-2 text-2xl font-semibold">You do not have access to this page</h1>
      <p className="mt-2 max-w-md text-sm text-slate-600">Your role does not allow it. If you think it should, ask an admin of this Yardstick.</p>
      <Link href="/" className="mt-6 text-sm font-medium text-brand-600 hover:underline">
        Go to your start page
      </Link>
    </main>
  );
}
