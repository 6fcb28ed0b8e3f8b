/**
 * `npm run bench:network` (bench/README.md "Bad networks"): issue 43's scenarios on Conclave and LiveKit, each row
 * Conclave / LiveKit with the goal marked met or not. Each browser in a network namespace of its own (the viewer,
 * the speaking publisher; the other cameras of the four-camera rows on the host), impaired by the e2e harness
 * (tests/e2e/src/harness/impair.ts), measured by what the viewer's page gets (call-quality.ts) and hears (speech.ts).
 * Knobs: BENCH_NETWORK_ENGINES (embedded,livekit; janus too), BENCH_NETWORK_ROWS (all | quick | names, comma-separated,
 * matched as prefixes), BENCH_NETWORK_SENTENCES (4 of speech.ts's sentences: a window of ~15 s).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { closeCall, closeSide, measure, openCall, openSide, waitForVideo, type CallDriver, type Measured, type Side } from '../../tests/e2e/src/harness/bad-network.js';
import { ConclaveDriver } from '../../tests/e2e/src/harness/conclave-call.js';
import { makeSpeech, SENTENCES } from '../../tests/e2e/src/harness/speech.js';
import { LivekitDriver, startLivekitServer } from './network-livekit.js';
import { SCENARIOS, type BenchScenario, type Session } from './network-scenarios.js';
import { ServerProcess } from './server-process.js';
import { progress } from './stats.js';
import { renderTable, type Row } from './table.js';

const VIEWER_NS = 44;
const SPEAKER_NS = 45;
const VIEWER_HOST_IP = `10.231.${VIEWER_NS}.1`;

type Engine = 'embedded' | 'janus' | 'livekit';

export interface NetworkResult {
  engine: Engine;
  session: Session;
  clean: boolean;
  measured: Measured;
  load: number[];
  goal?: { text: string; met: boolean };
}

const SESSIONS: Record<Session, { publishers: number; profile: '480p' | '720p'; roomId: number }> = {
  one: { publishers: 1, profile: '480p', roomId: 43_101 },
  four: { publishers: 4, profile: '480p', roomId: 43_102 },
  hd: { publishers: 1, profile: '720p', roomId: 43_103 },
};

function selected(rows: string): BenchScenario[] {
  if (rows === 'all') return SCENARIOS;
  if (rows === 'quick') return SCENARIOS.filter((s) => s.quick);
  const names = rows.split(',').map((r) => r.trim()).filter(Boolean);
  return SCENARIOS.filter((s) => names.some((n) => s.name.startsWith(n)));
}

async function startEngine(engine: Engine): Promise<{ driver: CallDriver; close(): Promise<void> }> {
  if (engine === 'livekit') {
    const server = await startLivekitServer(VIEWER_HOST_IP);
    const driver = new LivekitDriver(server.port);
    return { driver, close: async () => { await driver.close(); await server.close(); } };
  }
  const server = await ServerProcess.start({ env: { HOST: '0.0.0.0', CONCLAVE_ICE_ADDRESS: VIEWER_HOST_IP, CONCLAVE_ENGINE: engine }, timeoutMs: 90_000 });
  const driver = new ConclaveDriver(server, engine);
  return { driver, close: async () => { await driver.close(); await server.close(); } };
}

export async function runNetwork(options: { engines: Engine[]; rows: string; sentences: number }): Promise<NetworkResult[]> {
  const scenarios = selected(options.rows);
  const speech = makeSpeech(SENTENCES.slice(0, options.sentences));
  const results: NetworkResult[] = [];
  for (const engine of options.engines) {
    const { driver, close } = await startEngine(engine);
    let viewer: Side | undefined;
    let speaker: Side | undefined;
    let host: Side | undefined;
    try {
      viewer = await openSide(driver, VIEWER_NS);
      speaker = await openSide(driver, SPEAKER_NS);
      host = await openSide(driver);
      for (const session of ['one', 'four', 'hd'] as const) {
        const rows = scenarios.filter((s) => s.session === session);
        if (rows.length === 0) continue;
        const call = await openCall(driver, { viewer, speaker, others: host }, { ...SESSIONS[session], small: true, speech });
        try {
          if (!(await waitForVideo(call.viewer))) progress(`network ${engine} ${session}: video never flowed before the clean run`);
          const clean = await measure(call, { name: `${session}: clean` });
          results.push({ engine, session, clean: true, measured: clean, load: loadavg() });
          progress(`network ${engine} ${line(clean)}`);
          for (const scenario of rows) {
            if (!(await waitForVideo(call.viewer))) progress(`network ${engine}: video not back before "${scenario.name}"`);
            const m = await measure(call, scenario);
            const goal = scenario.goal ? { text: scenario.goal.text, met: scenario.goal.met(m, clean) } : undefined;
            results.push({ engine, session, clean: false, measured: m, load: loadavg(), goal });
            progress(`network ${engine} ${line(m, clean)}${goal ? ` — goal ${goal.met ? 'met' : 'NOT met'}` : ''}`);
          }
        } finally {
          await closeCall(call);
        }
      }
    } finally {
      await closeSide(host);
      await closeSide(speaker);
      await closeSide(viewer);
      await close();
    }
  }
  return results;
}

const pct = (x: number) => `${(x * 100).toFixed(0)} %`;

function line(m: Measured, clean?: Measured): string {
  return `${m.scenario}: words ${pct(m.accuracy)}${clean ? ` (${pct(clean.accuracy > 0 ? m.accuracy / clean.accuracy : 0)} of clean)` : ''}, concealed ${(m.audio.concealedRatio * 100).toFixed(1)} %, ` +
    `${m.video.streams}× ${m.video.fps.toFixed(1)} fps, freezes ${m.video.freezeCount} / ${Math.round(m.video.freezeMs)} ms (longest ${Math.round(m.video.longestFreezeMs)}), ` +
    `width ${m.video.minWidth}, sender ${m.sender ? `${m.sender.width}w ${m.sender.fps} fps ${Math.round(m.sender.targetKbit)} kbit/s limited by ${m.sender.limitation}` : '–'}, ` +
    `dropped ${JSON.stringify(m.dropped)}, load ${loadavg()[0]!.toFixed(1)} — "${m.transcript}"`;
}

/** Rows: per scenario and figure, the engines side by side ("Conclave / LiveKit"), the goal marked per engine. */
export function networkRows(results: NetworkResult[]): Row[] {
  const engines = [...new Set(results.map((r) => r.engine))];
  const scenarios = [...new Set(results.map((r) => r.measured.scenario))];
  const rows: Row[] = [];
  const cleanOf = (engine: Engine, session: Session) => results.find((r) => r.engine === engine && r.session === session && r.clean)?.measured;
  for (const name of scenarios) {
    const per = engines.map((e) => results.find((r) => r.engine === e && r.measured.scenario === name));
    const fig = (f: (r: NetworkResult) => string) => per.map((r) => (r ? f(r) : '–')).join(' / ');
    const rel = (r: NetworkResult) => {
      const clean = cleanOf(r.engine, r.session);
      return clean && clean.accuracy > 0 ? pct(r.measured.accuracy / clean.accuracy) : '–';
    };
    const load = Math.max(...per.map((r) => r?.load[0] ?? 0)).toFixed(1);
    const goal = per.find((r) => r?.goal)?.goal;
    const goalNote = goal ? `goal: ${goal.text} — ${per.map((r, i) => `${engines[i]} ${r?.goal?.met ? 'met' : 'not met'}`).join(', ')}; ` : '';
    const b = `network: ${name} (${engines.join(' / ')})`;
    rows.push(
      { benchmark: `${b}, words`, figure: fig((r) => `${pct(r.measured.accuracy)} (${rel(r)})`), unit: 'accuracy (of clean)', notes: `${goalNote}load ${load}` },
      { benchmark: `${b}, audio concealed`, figure: fig((r) => `${(r.measured.audio.concealedRatio * 100).toFixed(1)}`), unit: '% of samples', notes: `dropouts ${fig((r) => `${r.measured.audio.dropouts}/${Math.round(r.measured.audio.dropoutMs)} ms`)}` },
      { benchmark: `${b}, video`, figure: fig((r) => r.measured.video.fps.toFixed(1)), unit: 'fps (mean per stream)', notes: `width ${fig((r) => String(r.measured.video.minWidth))}` },
      { benchmark: `${b}, freezes`, figure: fig((r) => `${r.measured.video.freezeCount}/${(r.measured.video.freezeMs / 1000).toFixed(1)} s`), unit: 'count/total', notes: `longest ${fig((r) => `${(r.measured.video.longestFreezeMs / 1000).toFixed(1)} s`)}, share ${fig((r) => pct(r.measured.video.freezeShare))}` },
    );
    const marks = per.flatMap((r) => Object.keys(r?.measured.recoverMs ?? {}));
    for (const mark of new Set(marks)) {
      rows.push({ benchmark: `${b}, recovery after ${mark}`, figure: fig((r) => { const v = r.measured.recoverMs[mark]; return v === undefined ? 'never' : String(Math.round(v)); }), unit: 'ms', notes: '' });
    }
  }
  return rows;
}

/** One line per scenario, the engines side by side in each cell (bench/README.md's table). */
export function compactTable(results: NetworkResult[]): string {
  const engines = [...new Set(results.map((r) => r.engine))];
  const head = `| scenario (${engines.join(' / ')}) | words (of clean) | concealed % | fps | freezes (n / s, longest s) | width | goal | load |`;
  const lines = [head, '|---|---|---|---|---|---|---|---|'];
  const cleanOf = (r: NetworkResult) => results.find((c) => c.engine === r.engine && c.session === r.session && c.clean)?.measured;
  for (const name of [...new Set(results.map((r) => r.measured.scenario))]) {
    const per = engines.map((e) => results.find((r) => r.engine === e && r.measured.scenario === name));
    const cell = (f: (r: NetworkResult) => string) => per.map((r) => (r ? f(r) : '–')).join(' / ');
    const goal = per.find((r) => r?.goal)?.goal;
    lines.push(`| ${name} | ${cell((r) => { const c = cleanOf(r); return `${pct(r.measured.accuracy)} (${c && c.accuracy > 0 ? pct(r.measured.accuracy / c.accuracy) : '–'})`; })} | ` +
      `${cell((r) => (r.measured.audio.concealedRatio * 100).toFixed(1))} | ${cell((r) => r.measured.video.fps.toFixed(1))} | ` +
      `${cell((r) => `${r.measured.video.freezeCount} / ${(r.measured.video.freezeMs / 1000).toFixed(1)}, ${(r.measured.video.longestFreezeMs / 1000).toFixed(1)}`)} | ` +
      `${cell((r) => String(r.measured.video.minWidth))} | ${goal ? `${goal.text}: ${cell((r) => (r.goal?.met ? 'met' : 'not met'))}` : ''} | ${cell((r) => r.load[0]!.toFixed(0))} |`);
    for (const mark of new Set(per.flatMap((r) => Object.keys(r?.measured.recoverMs ?? {})))) {
      lines.push(`| ↳ recovery after ${mark} (ms) | | | | ${cell((r) => { const v = r.measured.recoverMs[mark]; return v === undefined ? 'never' : String(Math.round(v)); })} | | | |`);
    }
  }
  return lines.join('\n');
}

if (process.argv[2] === '--table') {
  // Renders a saved run again: node --import tsx src/network.ts --table results/network.json
  const saved = JSON.parse(readFileSync(process.argv[3] ?? new URL('../results/network.json', import.meta.url), 'utf8')) as { results: NetworkResult[] };
  process.stdout.write(`${compactTable(saved.results)}\n`);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const engines = (process.env.BENCH_NETWORK_ENGINES ?? 'embedded,livekit').split(',').map((e) => e.trim()) as Engine[];
  const results = await runNetwork({ engines, rows: process.env.BENCH_NETWORK_ROWS ?? 'all', sentences: Number(process.env.BENCH_NETWORK_SENTENCES ?? 4) });
  mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('../results/network.json', import.meta.url), JSON.stringify({ at: new Date().toISOString(), load: loadavg(), results }, null, 2));
  process.stdout.write(`\n${renderTable(networkRows(results))}\n\n${compactTable(results)}\n\nload average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
}
