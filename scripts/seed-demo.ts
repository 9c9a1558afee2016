// Loads the demo data into DATABASE_URL (migrated already) and prints what it did; the demo
// end-to-end test runs it, and `npm run demo` does the same through scripts/demo.ts.
import { seedDemo } from "./demo-data/seed-demo";
import { disconnectDb } from "@/lib/db";

console.log(await seedDemo());
await disconnectDb();
process.exit(0);
