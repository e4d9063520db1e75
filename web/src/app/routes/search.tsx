import { SearchPage } from '@/features/records/components/search'

export default function SearchRoute() {
  return <SearchPage />
}
