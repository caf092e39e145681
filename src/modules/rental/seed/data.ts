import type { OpeningHours } from '../locations/repo.js';

const office: OpeningHours = { mon: { open: '08:00', close: '20:00' }, tue: { open: '08:00', close: '20:00' }, wed: { open: '08:00', close: '20:00' }, thu: { open: '08:00', close: '20:00' }, fri: { open: '08:00', close: '20:00' }, sat: { open: '09:00', close: '14:00' } };

export const DEMO_LOCATIONS = [
  { slug: 'ist-airport', name: 'Istanbul Airport', type: 'airport', city: 'Istanbul', priority: 10, opening_hours: null },
  { slug: 'ist-sabiha', name: 'Sabiha Gökçen Airport', type: 'airport', city: 'Istanbul', priority: 8, opening_hours: null },
  { slug: 'ist-taksim-hotel', name: 'Taksim Grand Hotel', type: 'hotel', city: 'Istanbul', priority: 5, opening_hours: null },
  { slug: 'ist-office', name: 'Levent Office', type: 'office', city: 'Istanbul', priority: 4, opening_hours: office },
  { slug: 'ayt-airport', name: 'Antalya Airport', type: 'airport', city: 'Antalya', priority: 9, opening_hours: null },
  { slug: 'ayt-port', name: 'Antalya Marina Port', type: 'port', city: 'Antalya', priority: 3, opening_hours: null },
  { slug: 'izm-airport', name: 'Izmir Adnan Menderes Airport', type: 'airport', city: 'Izmir', priority: 7, opening_hours: null },
  { slug: 'izm-center', name: 'Izmir Alsancak City Centre', type: 'city_center', city: 'Izmir', priority: 2, opening_hours: office },
] as const;

type V = [name: string, category: string, brand: string, model: string, price: number, seats: number, transmission: 'manual' | 'automatic', fuel: 'petrol' | 'diesel' | 'hybrid' | 'electric', service: 'rental' | 'transfer' | 'both'];
export const DEMO_VEHICLES: V[] = [
  ['Fiat Egea', 'economy', 'Fiat', 'Egea', 35, 5, 'manual', 'diesel', 'rental'],
  ['Renault Clio', 'economy', 'Renault', 'Clio', 38, 5, 'manual', 'petrol', 'rental'],
  ['Toyota Corolla', 'compact', 'Toyota', 'Corolla', 48, 5, 'automatic', 'hybrid', 'rental'],
  ['Hyundai i20', 'economy', 'Hyundai', 'i20', 36, 5, 'manual', 'petrol', 'rental'],
  ['Volkswagen Golf', 'compact', 'Volkswagen', 'Golf', 55, 5, 'automatic', 'petrol', 'rental'],
  ['Peugeot 3008', 'suv', 'Peugeot', '3008', 72, 5, 'automatic', 'diesel', 'both'],
  ['Dacia Duster', 'suv', 'Dacia', 'Duster', 58, 5, 'manual', 'diesel', 'rental'],
  ['Nissan Qashqai', 'suv', 'Nissan', 'Qashqai', 70, 5, 'automatic', 'petrol', 'rental'],
  ['BMW 320i', 'premium', 'BMW', '320i', 110, 5, 'automatic', 'petrol', 'rental'],
  ['Mercedes C200', 'premium', 'Mercedes-Benz', 'C200', 120, 5, 'automatic', 'petrol', 'both'],
  ['Audi A6', 'premium', 'Audi', 'A6', 135, 5, 'automatic', 'diesel', 'rental'],
  ['Tesla Model 3', 'premium', 'Tesla', 'Model 3', 125, 5, 'automatic', 'electric', 'rental'],
  ['Mercedes Vito', 'van', 'Mercedes-Benz', 'Vito', 140, 8, 'automatic', 'diesel', 'transfer'],
  ['Volkswagen Transporter', 'van', 'Volkswagen', 'Transporter', 130, 9, 'manual', 'diesel', 'both'],
  ['Ford Tourneo', 'van', 'Ford', 'Tourneo Custom', 115, 8, 'manual', 'diesel', 'transfer'],
  ['Citroën C-Elysée', 'economy', 'Citroën', 'C-Elysée', 34, 5, 'manual', 'diesel', 'rental'],
  ['Honda Civic', 'compact', 'Honda', 'Civic', 52, 5, 'automatic', 'petrol', 'rental'],
  ['Jeep Renegade', 'suv', 'Jeep', 'Renegade', 75, 5, 'automatic', 'petrol', 'rental'],
  ['Mini Cooper Cabrio', 'convertible', 'Mini', 'Cooper Cabrio', 95, 4, 'automatic', 'petrol', 'rental'],
  ['Range Rover Evoque', 'premium', 'Land Rover', 'Evoque', 160, 5, 'automatic', 'diesel', 'rental'],
];

export const FIRST = ['Ayşe', 'Mehmet', 'Elif', 'Can', 'Zeynep', 'Emre', 'Selin', 'Burak', 'Deniz', 'Ece', 'Anna', 'Lukas', 'Sophie', 'James', 'Olivia'];
export const LAST = ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Öztürk', 'Arslan', 'Doğan', 'Müller', 'Schmidt', 'Smith', 'Brown'];
