import type { Entity } from './report.js';
import type { Step } from './service.js';

export const rentalSteps: Partial<Record<Entity, Step>> = {};
