// The worker half of bench/parse-workers.mjs: parses the files it is sent with the same
// extractor a cold `check` uses, and answers with the records.
import { parentPort, workerData } from 'node:worker_threads';

const { extractFile } = await import(workerData.extract);
const { tagRegex } = await import(workerData.tags);
const re = tagRegex(workerData.tagList);
parentPort.on('message', async (items) => {
  const out = [];
  for (const it of items) out.push(await extractFile(it.path, it.text, it.language, re));
  parentPort.postMessage(out);
});
