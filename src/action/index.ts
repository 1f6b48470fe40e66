// The Action entry only runs run(): everything else is testable without a process.
import { run } from './run.js';

void run();
