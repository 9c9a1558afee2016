import { inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.YARDSTICK_TEST_PG_URL = inject("serverUrl");
process.env.YARDSTICK_DATA_DIR ??= "/tmp/yardstick-it-data";
// the stand-in simulator of tests/fixtures/esi-simulator.ts listens on loopback (lib/tasks/esi-explore/simulator-client.ts)
process.env.YARDSTICK_SIMULATOR_HOSTS = "127.0.0.1";
