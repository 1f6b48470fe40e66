// @spec SPEC-AUTHORING-001

import type { Command } from '../commander.js';
import { confirmRecord } from '../../authoring/review.js';
import { registerReview } from './review-command.js';

export function register(program: Command): void {
  registerReview(program, 'confirm', "Confirm a proposed record: the type's accepted status and confidence owner_confirmed, written in place (every other byte of the record stays)", confirmRecord);
}
