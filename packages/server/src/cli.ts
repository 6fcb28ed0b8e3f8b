#!/usr/bin/env node
import { ConfigError } from './config/config.js';
import { startServer } from './server.js';

/** `conclave-server`: runs the platform on one port and prints how to use it. */
async function main(): Promise<void> {
  const server = await startServer();
  const { config } = server;
  const lines = [
    '',
    `  Conclave is running at ${server.url}`,
    `  Demo app:   ${server.url}/`,
    `  SDK:        ${server.url}/sdk/trtc.js (UMD, global TRTC)  ${server.url}/sdk/trtc.esm.js (ESM)`,
  ];
  if (config.devMode) {
    const app = config.apps[0];
    lines.push(
      `  Dev app:    sdkAppId ${app.sdkAppId}, secret key ${app.secretKey}`,
      '              (generated for this run; set CONCLAVE_SDKAPPID and CONCLAVE_SECRET_KEY to fix them)',
      '  userSig:    the demo generates one in the browser; in code use genUserSig() from @conclave/usersig',
    );
  } else {
    lines.push(`  Apps:       ${config.apps.map((a) => a.sdkAppId).join(', ')}`);
  }
  process.stdout.write(lines.join('\n') + '\n\n');
  const stop = () => {
    server.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`conclave-server: invalid configuration: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`conclave-server: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
