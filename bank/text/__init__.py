"""Text cleaning for scraped papers."""
