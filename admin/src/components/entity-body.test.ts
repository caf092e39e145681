import { describe, expect, it } from 'vitest';
import { toBody, type FieldSpec } from './entity-body';

const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'price', label: 'Price', kind: 'number' },
  { name: 'year', label: 'Year', kind: 'number', nullable: true },
  { name: 'category', label: 'Category', kind: 'text' },
  { name: 'active', label: 'Active', kind: 'checkbox' },
];

describe('toBody', () => {
  it('parses numbers, trims text, leaves out empty optional fields and sends null for empty nullable ones', () => {
    expect(toBody(FIELDS, { name: '  Clio ', price: '42.50', year: '', category: '', active: true })).toEqual({
      name: 'Clio',
      price: 42.5,
      year: null,
      active: true,
    });
  });
  it('an unchecked checkbox is false, a filled nullable number is a number', () => {
    expect(toBody(FIELDS, { name: 'x', price: '0', year: '2024', category: 'suv', active: false })).toEqual({
      name: 'x',
      price: 0,
      year: 2024,
      category: 'suv',
      active: false,
    });
  });
});

describe('toBody with pickers', () => {
  const PICKED: FieldSpec[] = [{ name: 'location_id', label: 'Location', kind: 'picker', nullable: true }];
  it('a picked record sends its id as a number; a cleared picker sends null', () => {
    expect(toBody(PICKED, { location_id: '7' })).toEqual({ location_id: 7 });
    expect(toBody(PICKED, { location_id: '' })).toEqual({ location_id: null });
  });
});
