import type { Entity } from './report.js';
import type { Step } from './context.js';

export const rentalSteps: Partial<Record<Entity, Step>> = {};
