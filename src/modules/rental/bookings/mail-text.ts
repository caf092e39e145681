import type { MailLanguage } from '../../../platform/mail/env.js';

/** How the amount due mail tells a guest (no account: the mail's manage link) to pay the rest. */
export const PAY_REST_BY_LINK = 'Pay the rest by card with the link “Manage your booking without signing in” below.';
/** How it tells a customer with an account. */
export const PAY_REST_IN_ACCOUNT = 'Pay the rest by card from this booking in your account.';
/** The row of a mail that states the amount due itself (a price change's): restDueRows adds no "Still due" beside it. */
export const AMOUNT_DUE_ROW = 'Amount due';
/** How a mail tells a guest that the rest after a deposit is paid at pick-up, or by card before it. */
export const PAY_REST_AT_PICKUP_BY_LINK =
  'At pick-up, or before it by card with the link “Manage your booking without signing in” below.';
/** How it tells a customer with an account. */
export const PAY_REST_AT_PICKUP_IN_ACCOUNT = 'At pick-up, or before it by card from this booking in your account.';

/**
 * The fixed words of the customer's booking mails in the store's language (STORE_LANGUAGE). Written in English where
 * the mails are composed, translated here by their English text: a phrase without a row stays English.
 */
const PHRASES: Record<string, { de: string; tr: string }> = {
  // subjects
  'Booking received': { de: 'Buchung eingegangen', tr: 'Rezervasyon alındı' },
  'Booking confirmed': { de: 'Buchung bestätigt', tr: 'Rezervasyon onaylandı' },
  'Booking cancelled': { de: 'Buchung storniert', tr: 'Rezervasyon iptal edildi' },
  'Booking changed': { de: 'Buchung geändert', tr: 'Rezervasyon değiştirildi' },
  'Payment received': { de: 'Zahlung eingegangen', tr: 'Ödeme alındı' },
  'Amount due': { de: 'Offener Betrag', tr: 'Ödenecek tutar' },
  'Payment reminder': { de: 'Zahlungserinnerung', tr: 'Ödeme hatırlatması' },
  'New reply to your message': { de: 'Neue Antwort auf Ihre Nachricht', tr: 'Mesajınıza yeni yanıt' },
  // first paragraphs
  'Thank you for your booking. Here are its details.': {
    de: 'Vielen Dank für Ihre Buchung. Hier sind die Einzelheiten.',
    tr: 'Rezervasyonunuz için teşekkür ederiz. Ayrıntılar aşağıdadır.',
  },
  'Your booking is confirmed. We look forward to seeing you.': {
    de: 'Ihre Buchung ist bestätigt. Wir freuen uns auf Sie.',
    tr: 'Rezervasyonunuz onaylandı. Sizi görmeyi dört gözle bekliyoruz.',
  },
  'Your booking has been changed. Here are its new details.': {
    de: 'Ihre Buchung wurde geändert. Hier sind die neuen Einzelheiten.',
    tr: 'Rezervasyonunuz değiştirildi. Yeni ayrıntılar aşağıdadır.',
  },
  'Previous total': { de: 'Bisheriger Gesamtbetrag', tr: 'Önceki toplam' },
  'Change fee': { de: 'Änderungsgebühr', tr: 'Değişiklik ücreti' },
  'Your booking has been cancelled.': { de: 'Ihre Buchung wurde storniert.', tr: 'Rezervasyonunuz iptal edildi.' },
  'We have received your payment. Thank you.': {
    de: 'Wir haben Ihre Zahlung erhalten. Vielen Dank.',
    tr: 'Ödemenizi aldık. Teşekkür ederiz.',
  },
  'The price of your booking has changed: an amount is due.': {
    de: 'Der Preis Ihrer Buchung hat sich geändert: Ein Betrag ist offen.',
    tr: 'Rezervasyonunuzun fiyatı değişti: ödenmesi gereken bir tutar var.',
  },
  'Your booking is waiting for its payment.': {
    de: 'Ihre Buchung wartet auf die Zahlung.',
    tr: 'Rezervasyonunuz ödeme bekliyor.',
  },
  'The booking is attached as a calendar event (.ics).': {
    de: 'Die Buchung liegt als Kalendertermin (.ics) bei.',
    tr: 'Rezervasyon, takvim etkinliği (.ics) olarak ektedir.',
  },
  'We have answered your message:': { de: 'Wir haben auf Ihre Nachricht geantwortet:', tr: 'Mesajınızı yanıtladık:' },
  'Read and answer it in your account.': {
    de: 'Lesen und beantworten Sie sie in Ihrem Konto.',
    tr: 'Hesabınızda okuyup yanıtlayabilirsiniz.',
  },
  'View your booking': { de: 'Ihre Buchung ansehen', tr: 'Rezervasyonunuzu görüntüleyin' },
  'Manage your booking without signing in': {
    de: 'Buchung ohne Anmeldung verwalten',
    tr: 'Rezervasyonunuzu oturum açmadan yönetin',
  },
  'Open your messages': { de: 'Ihre Nachrichten öffnen', tr: 'Mesajlarınızı açın' },
  Hello: { de: 'Hallo', tr: 'Merhaba' },
  // row labels
  Reference: { de: 'Buchungsnummer', tr: 'Rezervasyon numarası' },
  Vehicle: { de: 'Fahrzeug', tr: 'Araç' },
  'Pick-up': { de: 'Abholung', tr: 'Teslim alma' },
  Return: { de: 'Rückgabe', tr: 'İade' },
  'Pick-up location': { de: 'Abholort', tr: 'Teslim alma yeri' },
  'Return location': { de: 'Rückgabeort', tr: 'İade yeri' },
  Total: { de: 'Gesamt', tr: 'Toplam' },
  Status: { de: 'Status', tr: 'Durum' },
  'Pay by': { de: 'Zahlbar bis', tr: 'Son ödeme' },
  Payment: { de: 'Zahlung', tr: 'Ödeme' },
  'Amount paid': { de: 'Gezahlt', tr: 'Ödenen tutar' },
  'Still due': { de: 'Noch offen', tr: 'Kalan tutar' },
  'Amount due now': { de: 'Jetzt fällig', tr: 'Şimdi ödenecek' },
  'How to pay': { de: 'So zahlen Sie', tr: 'Nasıl ödenir' },
  [PAY_REST_BY_LINK]: {
    de: 'Zahlen Sie den Rest per Karte über den Link „Buchung ohne Anmeldung verwalten“ unten.',
    tr: 'Kalan tutarı aşağıdaki “Rezervasyonunuzu oturum açmadan yönetin” bağlantısıyla kartla ödeyin.',
  },
  [PAY_REST_IN_ACCOUNT]: {
    de: 'Zahlen Sie den Rest per Karte bei dieser Buchung in Ihrem Konto.',
    tr: 'Kalan tutarı hesabınızdaki bu rezervasyondan kartla ödeyin.',
  },
  [PAY_REST_AT_PICKUP_BY_LINK]: {
    de: 'Bei Abholung oder vorher per Karte über den Link „Buchung ohne Anmeldung verwalten“ unten.',
    tr: 'Teslim almada ya da öncesinde aşağıdaki “Rezervasyonunuzu oturum açmadan yönetin” bağlantısıyla kartla.',
  },
  [PAY_REST_AT_PICKUP_IN_ACCOUNT]: {
    de: 'Bei Abholung oder vorher per Karte bei dieser Buchung in Ihrem Konto.',
    tr: 'Teslim almada ya da öncesinde hesabınızdaki bu rezervasyondan kartla.',
  },
  Paid: { de: 'Bezahlt', tr: 'Ödendi' },
  Reason: { de: 'Grund', tr: 'Neden' },
  Reminder: { de: 'Erinnerung', tr: 'Hatırlatma' },
  'Cancellation fee': { de: 'Stornogebühr', tr: 'İptal ücreti' },
  Refund: { de: 'Erstattung', tr: 'İade tutarı' },
  Subject: { de: 'Betreff', tr: 'Konu' },
  Note: { de: 'Anmerkung', tr: 'Not' },
  // values
  'At pick-up: the vehicle is held for you until then': {
    de: 'Bei Abholung: Das Fahrzeug ist bis dahin für Sie reserviert',
    tr: 'Teslim almada: araç o zamana kadar sizin için ayrılmıştır',
  },
  'We have not received your payment yet. Unpaid at the deadline above, the booking is cancelled.': {
    de: 'Wir haben Ihre Zahlung noch nicht erhalten. Ist sie bis zur obigen Frist nicht bezahlt, wird die Buchung storniert.',
    tr: 'Ödemenizi henüz almadık. Yukarıdaki son tarihe kadar ödenmezse rezervasyon iptal edilir.',
  },
  'The payment deadline passed before the payment arrived; the booking was cancelled and the vehicle released.': {
    de: 'Die Zahlungsfrist ist vor Eingang der Zahlung abgelaufen; die Buchung wurde storniert und das Fahrzeug freigegeben.',
    tr: 'Ödeme, son ödeme tarihinden önce ulaşmadı; rezervasyon iptal edildi ve araç serbest bırakıldı.',
  },
  'Payment arrived after the hold expired and the vehicle was booked by someone else; the payment was refunded.': {
    de: 'Die Zahlung kam nach Ablauf der Reservierung, und das Fahrzeug wurde von jemand anderem gebucht; die Zahlung wurde erstattet.',
    tr: 'Ödeme, ayırma süresi dolduktan sonra ulaştı ve araç başka biri tarafından kiralandı; ödeme iade edildi.',
  },
  'Cancelled by the store.': { de: 'Vom Vermieter storniert.', tr: 'Mağaza tarafından iptal edildi.' },
  'The vehicle is no longer available: its provider cancelled the booking.': {
    de: 'Das Fahrzeug ist nicht mehr verfügbar: Sein Anbieter hat die Buchung storniert.',
    tr: 'Araç artık müsait değil: sağlayıcısı rezervasyonu iptal etti.',
  },
  'Everything you paid for this booking is refunded.': {
    de: 'Alles, was Sie für diese Buchung bezahlt haben, wird erstattet.',
    tr: 'Bu rezervasyon için ödediğiniz tutarın tamamı iade edilir.',
  },
  // statuses
  pending_payment: { de: 'Zahlung ausstehend', tr: 'Ödeme bekleniyor' },
  pending: { de: 'Ausstehend', tr: 'Beklemede' },
  confirmed: { de: 'Bestätigt', tr: 'Onaylandı' },
  in_progress: { de: 'Laufend', tr: 'Devam ediyor' },
  completed: { de: 'Abgeschlossen', tr: 'Tamamlandı' },
  cancelled: { de: 'Storniert', tr: 'İptal edildi' },
  no_show: { de: 'Nicht erschienen', tr: 'Gelmedi' },
  refunded: { de: 'Erstattet', tr: 'İade edildi' },
  draft: { de: 'Entwurf', tr: 'Taslak' },
};

/** English words of a status code (`pending_payment` → `pending payment`). */
const STATUS_EN: Record<string, string> = { pending_payment: 'pending payment', in_progress: 'in progress' };

/** `english` in `lang` (itself when there is no row for it). */
export function phrase(lang: MailLanguage, english: string): string {
  return lang === 'en' ? english : (PHRASES[english]?.[lang] ?? english);
}

/** A booking status code in words. */
export function statusWord(lang: MailLanguage, code: string): string {
  return lang === 'en' ? (STATUS_EN[code] ?? code.replace(/_/g, ' ')) : (PHRASES[code]?.[lang] ?? code);
}

export const MAIL_LOCALE: Record<MailLanguage, string> = { en: 'en-GB', de: 'de-DE', tr: 'tr-TR' };

/** An instant in the store's time zone and language, the zone named (mails are read far from the server). */
export function storeTime(iso: string, timezone: string, lang: MailLanguage): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${formatterFor(timezone, lang).format(d)} (${timezone})`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timezone: string, lang: MailLanguage): Intl.DateTimeFormat {
  const key = `${lang} ${timezone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(MAIL_LOCALE[lang], { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short' });
    if (formatters.size > 100) formatters.clear();
    formatters.set(key, f);
  }
  return f;
}
