// s3rver ships no types; the part tests/s3rver.ts uses.
declare module "s3rver" {
  interface S3rverOptions {
    port?: number;
    address?: string;
    directory?: string;
    silent?: boolean;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: Array<{ name: string; configs: Array<string | Buffer> }>;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    /** S3 event notifications: one per object written or removed (s3rver is a Koa app) */
    on(event: "event", listener: (event: { Records: Array<{ eventName: string; s3: { object: { key: string } } }> }) => void): this;
  }
}
