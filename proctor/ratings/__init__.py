"""Ratings: a rating for every person and a measured difficulty for every question, from first answers (docs/ratings.md)."""
