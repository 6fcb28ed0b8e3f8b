/**
 * Every action of the `trtc` API, version 2019-07-22 (as tencentcloud-sdk-nodejs's trtc client calls them).
 * One of these that Conclave does not implement is refused with UnsupportedOperation; any other name with
 * InvalidAction, as the API does for an action that does not exist.
 */
export const TRTC_ACTIONS: ReadonlySet<string> = new Set([
  'AsyncTextToSpeech', 'ControlAIConversation', 'CreateAudioModerationSync', 'CreateCloudModeration', 'CreateCloudRecording',
  'CreateCloudSliceTask', 'CreateCloudTranscription', 'CreateLiveStreamModeration', 'CreatePicture', 'CreateRecognizeVocabV3',
  'DeleteCloudModeration', 'DeleteCloudRecording', 'DeleteCloudSliceTask', 'DeleteCloudTranscription',
  'DeleteLiveStreamModeration', 'DeletePicture', 'DeleteRecognizeVocabV3', 'DeleteVoicePrint', 'DescribeAIConversation',
  'DescribeAITranscription', 'DescribeAsyncTextToSpeech', 'DescribeCallDetailInfo', 'DescribeCloudModeration',
  'DescribeCloudRecording', 'DescribeCloudSliceTask', 'DescribeCloudTranscription', 'DescribeLiveStreamModeration',
  'DescribeMixTranscodingUsage', 'DescribePicture', 'DescribeRecordStatistic', 'DescribeRecordingUsage', 'DescribeRelayUsage',
  'DescribeRoomInfo', 'DescribeScaleInfo', 'DescribeStreamIngest', 'DescribeTRTCAIRecognitionUsage',
  'DescribeTRTCDedicatedCloudAccUsage', 'DescribeTRTCMarketQualityData', 'DescribeTRTCMarketScaleData',
  'DescribeTRTCMarketScaleMetricData', 'DescribeTRTCRealTimeQualityData', 'DescribeTRTCRealTimeScaleData',
  'DescribeTRTCSegmentModerationUsage', 'DescribeTrtcMcuTranscodeTime', 'DescribeTrtcRoomUsage', 'DescribeTrtcUsage',
  'DescribeUnusualEvent', 'DescribeUserEvent', 'DescribeUserInfo', 'DescribeVoicePrint', 'DescribeWebRecord', 'DismissRoom',
  'DismissRoomByStrRoomId', 'DownloadRecognizeVocabV3', 'GetRecognizeVocabListV3', 'GetRecognizeVocabV3',
  'ModifyCloudModeration', 'ModifyCloudRecording', 'ModifyCloudSliceTask', 'ModifyPicture', 'RegisterVoicePrint', 'RemoveUser',
  'RemoveUserByStrRoomId', 'SetVocabStateV3', 'StartAIConversation', 'StartAITranscription', 'StartMCUMixTranscode',
  'StartMCUMixTranscodeByStrRoomId', 'StartPublishCdnStream', 'StartStreamIngest', 'StartWebRecord', 'StopAIConversation',
  'StopAITranscription', 'StopMCUMixTranscode', 'StopMCUMixTranscodeByStrRoomId', 'StopPublishCdnStream', 'StopStreamIngest',
  'StopWebRecord', 'TextToSpeech', 'TextToSpeechSSE', 'UpdateAIConversation', 'UpdatePublishCdnStream', 'UpdateRecognizeVocabV3',
  'UpdateStreamIngest', 'UpdateVoicePrint', 'VoiceClone',
]);

/** The API version this endpoint answers (X-TC-Version). */
export const TRTC_VERSION = '2019-07-22';
