import { inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.YARDSTICK_TEST_PG_URL = inject("serverUrl");
process.env.YARDSTICK_DATA_DIR ??= "/tmp/yardstick-it-data";
