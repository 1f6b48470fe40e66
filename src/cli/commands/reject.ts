// @spec SPEC-AUTHORING-001

import type { Command } from '../commander.js';
import { rejectRecord } from '../../authoring/review.js';
import { registerReview } from './review-command.js';

export function register(program: Command): void {
  registerReview(program, 'reject', "Reject a proposed record: status rejected (or the type's equivalent), written in place; the record stays as history", rejectRecord);
}
