import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function ContactsPage() {
  return <PlaceholderScreen screen="contacts" />;
}
