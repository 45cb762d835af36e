import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function ContactDetailPage() {
  return <PlaceholderScreen screen="contactDetail" />;
}
