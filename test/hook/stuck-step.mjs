// Preloaded into a hook process by test/hook/stuck-step.test.ts (`node --import`): one synchronous step that never
// ends, as a `JSON.parse` or a pass over half a million items is at load. A JSON text carrying the marker below
// makes `JSON.parse` spin without ever yielding to the event loop, so no timer of the process can fire.
const marker = 'linkgate-test-stuck-step';
const parse = JSON.parse;
JSON.parse = function stuckParse(text, reviver) {
  if (typeof text === 'string' && text.length > 1024 * 1024 && text.includes(marker)) for (;;);
  return parse.call(JSON, text, reviver);
};
