import { Route, Routes } from 'react-router';
import { BookingDetail } from './BookingDetail';
import { BookingList } from './BookingList';
import { NewBooking } from './NewBooking';

export default function Bookings() {
  return (
    <Routes>
      <Route index element={<BookingList />} />
      <Route path="new" element={<NewBooking />} />
      <Route path=":id" element={<BookingDetail />} />
    </Routes>
  );
}
