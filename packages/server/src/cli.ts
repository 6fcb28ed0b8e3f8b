#!/usr/bin/env node
import { ClusterError } from './cluster/cluster.js';
import { ConfigError } from './config/config.js';
import { startExitWatchdog } from './lifecycle/exit-watchdog.js';
import { JanusMissingError } from './engine/create-engine.js';
import { startServer } from './server.js';
import { StoreError } from './store/store.js';

/** How long a graceful shutdown may take before the process exits anyway (a cluster node adds its drain time-out). */
const SHUTDOWN_GRACE_MS = 10_000;

/** `conclave-server`: runs the platform on one port and prints how to use it. */
async function main(): Promise<void> {
  const watchdog = startExitWatchdog();
  const server = await startServer();
  const { config } = server;
  // The handlers before the banner: whoever waits for the banner may signal at once.
  const stop = (signal: string) => {
    // First, before any I/O that could block: the forced exit, on its own (already running) thread.
    const forcedExitMs = SHUTDOWN_GRACE_MS + (server.nodeId ? config.drainTimeoutMs : 0);
    const lateMs = watchdog.arm(forcedExitMs);
    process.stdout.write(`conclave-server: ${signal}: ${server.nodeId ? 'draining, then ' : ''}telling clients to reconnect and shutting down (forced exit after ${forcedExitMs / 1000} s${lateMs >= 100 ? `, of which the event loop's recent delay took ${(lateMs / 1000).toFixed(1)} s` : ''})\n`);
    server.drain().then(() => server.close()).then(() => process.exit(0), (error: unknown) => {
      process.stderr.write(`conclave-server: ${signal}: shutting down failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
      process.exit(1);
    });
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  const lines = [
    '',
    `  Conclave is running at ${server.url}`,
    `  Demo app:   ${server.url}/        Admin page: ${server.url}/admin.html`,
    `  SDK:        ${server.url}/sdk/trtc.js (UMD, global TRTC)  ${server.url}/sdk/trtc.esm.js (ESM)`,
    `  Admin API:  ${server.url}/admin/v1/apps/<sdkAppId>/rooms (Authorization: Bearer <adminKey>); ${server.url}/admin/openapi.json`,
    `  Ops:        ${server.url}/healthz  ${server.url}/metrics`,
    `  Storage:    ${config.storage.path}`,
  ];
  if (config.devMode) {
    const app = config.apps[0];
    lines.push(
      `  Dev app:    sdkAppId ${app.sdkAppId}, secret key ${app.secretKey}`,
      `              admin key ${app.adminKey ?? '(none)'}`,
      '              (generated for this run; set CONCLAVE_SDKAPPID, CONCLAVE_SECRET_KEY and CONCLAVE_ADMIN_KEY, or CONCLAVE_CONFIG, to fix them)',
      '  userSig:    the demo generates one in the browser; in code use genUserSig() from @conclave/usersig',
    );
  } else {
    lines.push(`  Apps:       ${config.apps.map((a) => `${a.sdkAppId}${a.name ? ` (${a.name})` : ''}${a.adminKey ? '' : ' [no admin key]'}`).join(', ')}`);
  }
  process.stdout.write(lines.join('\n') + '\n\n');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`conclave-server: invalid configuration: ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof JanusMissingError) {
    process.stderr.write(`conclave-server: media engine: ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof ClusterError) {
    process.stderr.write(`conclave-server: cluster: ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof StoreError) {
    process.stderr.write(`conclave-server: storage: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`conclave-server: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
