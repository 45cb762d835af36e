import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function DdaReportPage() {
  return <PlaceholderScreen screen="ddaReport" />;
}
