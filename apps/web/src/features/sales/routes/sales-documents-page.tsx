import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function SalesDocumentsPage() {
  return <PlaceholderScreen screen="salesDocuments" />;
}
