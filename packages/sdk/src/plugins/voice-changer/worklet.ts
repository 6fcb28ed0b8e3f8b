import { VoiceDsp } from './dsp.js';

/** The AudioWorklet processor's registered name. */
export const WORKLET_NAME = 'conclave-voice-changer';

/**
 * The worklet module's source: VoiceDsp's own text (bundled and minified with the plugin) and a processor
 * that runs it on the microphone, taking new params from its port (update without touching the graph).
 * Added from a Blob URL, so the plugin needs no asset file.
 */
export function workletSource(): string {
  return `const VoiceDsp = ${VoiceDsp.toString()};
registerProcessor(${JSON.stringify(WORKLET_NAME)}, class extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.dsp = new VoiceDsp(sampleRate, options.processorOptions.params);
    this.port.onmessage = (event) => { this.dsp.params = event.data; };
  }
  process(inputs, outputs) {
    const input = inputs[0] && inputs[0][0];
    const output = outputs[0] && outputs[0][0];
    if (!output) return true;
    if (input) { output.set(input); this.dsp.process(output); }
    for (let c = 1; c < outputs[0].length; c++) outputs[0][c].set(output);
    return true;
  }
});`;
}
