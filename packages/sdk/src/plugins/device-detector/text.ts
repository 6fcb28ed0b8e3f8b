/** The dialog's words in English and Chinese (`language`: 'en', 'zh', or 'auto' from the browser's language). */
export interface DetectorText {
  title: string;
  camera: string;
  cameraAsk: string;
  microphone: string;
  microphoneAsk: string;
  speaker: string;
  speakerAsk: string;
  play: string;
  network: string;
  networkRunning: (seconds: number) => string;
  networkQuality: string;
  rtt: string;
  qualityNames: readonly string[];
  yes: string;
  no: string;
  skip: string;
  next: string;
  finish: string;
  close: string;
  report: string;
  passed: string;
  failed: string;
  noDevice: string;
}

const EN: DetectorText = {
  title: 'Device check',
  camera: 'Camera',
  cameraAsk: 'Can you see yourself in the picture?',
  microphone: 'Microphone',
  microphoneAsk: 'Speak: does the bar move?',
  speaker: 'Speaker',
  speakerAsk: 'Play the test sound: can you hear it?',
  play: 'Play sound',
  network: 'Network',
  networkRunning: (s) => `Testing the network… ${s} s`,
  networkQuality: 'Network quality',
  rtt: 'Round-trip time',
  qualityNames: ['0: unknown', '1: excellent', '2: good', '3: fair', '4: poor', '5: very poor', '6: disconnected'],
  yes: 'Yes',
  no: 'No',
  skip: 'Skip',
  next: 'Next',
  finish: 'Finish',
  close: 'Close',
  report: 'Report',
  passed: 'OK',
  failed: 'Failed',
  noDevice: 'No device found',
};

const ZH: DetectorText = {
  title: '设备检测',
  camera: '摄像头',
  cameraAsk: '能看到自己的画面吗？',
  microphone: '麦克风',
  microphoneAsk: '请说话：音量条有变化吗？',
  speaker: '扬声器',
  speakerAsk: '请播放测试声音：能听到吗？',
  play: '播放声音',
  network: '网络',
  networkRunning: (s) => `网络检测中… ${s} 秒`,
  networkQuality: '网络质量',
  rtt: '往返时延',
  qualityNames: ['0：网络状况未知', '1：网络状况极佳', '2：网络状况较好', '3：网络状况一般', '4：网络状况较差', '5：网络状况极差', '6：网络连接断开'],
  yes: '是',
  no: '否',
  skip: '跳过',
  next: '下一步',
  finish: '完成',
  close: '关闭',
  report: '检测报告',
  passed: '正常',
  failed: '异常',
  noDevice: '未检测到设备',
};

/** The text for a `language` option. */
export function textFor(language: unknown): DetectorText {
  if (language === 'zh') return ZH;
  if (language === 'en') return EN;
  const browser = typeof navigator !== 'undefined' ? navigator.language : '';
  return /^zh/i.test(browser) ? ZH : EN;
}
