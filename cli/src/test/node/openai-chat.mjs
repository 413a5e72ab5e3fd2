// The official npm `openai` client against `openagent serve model` (run by NodeClientsTest).
// Usage: node openai-chat.mjs BASE_URL MODEL REQUESTS_JSON
// Prints one JSON line per conversation (the reply message), per bad request (status and message),
// then {"done": true}. Exits 1 when a reply breaks the API's contract.
import fs from 'node:fs';
import OpenAI from 'openai';

const [baseURL, model, file] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey: 'none', maxRetries: 0, timeout: 60_000 });
const { conversations, bad } = JSON.parse(fs.readFileSync(file, 'utf8'));
const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const fail = (why) => { process.stderr.write(why + '\n'); process.exit(1); };

// Every optional field of a chat-completions request, set as an application might set it.
const everyField = {
  temperature: 0.2, top_p: 1, n: 1, seed: 7, stop: ['\n\n'], max_tokens: 256, max_completion_tokens: 256,
  presence_penalty: 0, frequency_penalty: 0, logit_bias: { '50256': -100 }, logprobs: false, top_logprobs: null,
  response_format: { type: 'text' }, reasoning_effort: 'low', verbosity: 'low', modalities: ['text'], audio: null,
  prediction: null, web_search_options: {}, moderation: null, parallel_tool_calls: false, stream: false, stream_options: null,
  metadata: { suite: 'openagent' }, store: false, user: 'ci', safety_identifier: 'ci', prompt_cache_key: 'openagent',
  prompt_cache_retention: null, service_tier: 'auto', tool_choice: 'auto',
};

const models = await client.models.list();
if (!models.data.some((m) => m.id === model)) fail(`models.list() does not list ${model}: ${JSON.stringify(models.data)}`);
if ((await client.models.retrieve(model)).id !== model) fail(`models.retrieve(${model}) returns another model`);

for (const [index, c] of conversations.entries()) {
  const request = { model, messages: c.messages, ...everyField };
  if (c.tools) request.tools = c.tools;
  else delete request.tool_choice;
  const r = await client.chat.completions.create(request);
  const choice = r.choices[0];
  for (const call of choice.message.tool_calls ?? []) {
    if (typeof call.function.arguments !== 'string') fail(`tool_calls[].function.arguments is a ${typeof call.function.arguments}, not a string`);
  }
  if (r.object !== 'chat.completion' || typeof r.usage?.total_tokens !== 'number') fail(`not a chat.completion: ${JSON.stringify(r)}`);
  print({ index, finish_reason: choice.finish_reason, message: choice.message });
}

for (const b of bad) {
  try {
    await client.chat.completions.create({ model, messages: conversations[0].messages, ...b.fields });
    print({ bad: b.name, status: 200 });
  } catch (e) {
    if (!(e instanceof OpenAI.APIError)) throw e;
    print({ bad: b.name, status: e.status, message: e.error?.message ?? e.message });
  }
}
print({ done: true });
